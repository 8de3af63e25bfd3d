import {
  MESSAGE_KIND_LABELS,
  MESSAGE_KINDS,
  MESSAGE_PLACEHOLDERS,
  renderTemplate,
  renderTextMessage,
  SAMPLE_MESSAGE_VALUES,
  unknownPlaceholders,
  type MessageKind,
  type MessageTemplates,
} from '@crm/projections/messages';
import { useState } from 'react';
import { useMessageTemplates, useSaveMessageTemplates } from '@/components/messages/messages-api';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input, Textarea } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-error';
import { toast } from '@/lib/toast';
import { BackLink } from '@/components/back-link';

type Draft = Record<MessageKind, { subject: string; emailBody: string; smsBody: string }>;

function draftOf(data: MessageTemplates): Draft {
  return Object.fromEntries(
    data.templates.map((t) => [t.kind, { subject: t.subject, emailBody: t.emailBody, smsBody: t.smsBody }]),
  ) as Draft;
}

/** The admins' editor: the shop's sender and reminder hour, and each kind's wording with a live preview. */
export function TemplatesScreen({ instance, messagesPath }: { instance: string; messagesPath: string }) {
  const templates = useMessageTemplates(instance);
  if (templates.isPending) return <Spinner label="Loading templates..." />;
  if (templates.isError) return <Alert>The templates could not be loaded: {errorMessage(templates.error, 'try again')}</Alert>;
  return <TemplatesForm key={templates.dataUpdatedAt} instance={instance} data={templates.data} messagesPath={messagesPath} />;
}

function TemplatesForm({ instance, data, messagesPath }: { instance: string; data: MessageTemplates; messagesPath: string }) {
  const save = useSaveMessageTemplates(instance);
  const [settings, setSettings] = useState(data.settings);
  const [draft, setDraft] = useState<Draft>(() => draftOf(data));
  const [kind, setKind] = useState<MessageKind>('appointment-confirmation');
  const current = draft[kind];
  const values = {
    ...SAMPLE_MESSAGE_VALUES,
    'shop.name': data.shopName,
    'shop.phone': settings.shopPhone || SAMPLE_MESSAGE_VALUES['shop.phone'],
  };
  const unknown = [...new Set([current.subject, current.emailBody, current.smsBody].flatMap(unknownPlaceholders))];
  const edit = (field: keyof Draft[MessageKind]) => (event: { target: { value: string } }) =>
    setDraft((d) => ({ ...d, [kind]: { ...d[kind], [field]: event.target.value } }));

  const handleSave = () => {
    save.mutate(
      { settings, templates: MESSAGE_KINDS.map((k) => ({ kind: k, ...draft[k] })) },
      {
        onSuccess: () => toast({ title: 'Templates saved' }),
        onError: (error) => toast({ title: 'Not saved', description: errorMessage(error, 'Try again.'), variant: 'destructive' }),
      },
    );
  };

  return (
    <div className="mx-auto grid w-full max-w-5xl gap-4">
      <BackLink to={messagesPath}>Back to Messages</BackLink>
      <h1 className="text-2xl font-semibold">Message templates</h1>
      <Card>
        <CardHeader>
          <CardTitle>Settings</CardTitle>
          <CardDescription>Times in messages are in the shop&apos;s time zone, {data.timeZone}.</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4 sm:grid-cols-3">
          <div className="grid gap-1.5">
            <Label htmlFor="messaging-from">From address</Label>
            <Input
              id="messaging-from"
              type="email"
              placeholder="The server's default"
              value={settings.fromAddress}
              onChange={(e) => setSettings({ ...settings, fromAddress: e.target.value })}
            />
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor="messaging-phone">Shop phone</Label>
            <Input
              id="messaging-phone"
              value={settings.shopPhone}
              onChange={(e) => setSettings({ ...settings, shopPhone: e.target.value })}
            />
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor="messaging-hour">Reminders go out the day before at</Label>
            <select
              id="messaging-hour"
              className="border-input bg-background h-9 rounded-md border px-2 text-sm"
              value={settings.reminderHour}
              onChange={(e) => setSettings({ ...settings, reminderHour: Number(e.target.value) })}
            >
              {Array.from({ length: 24 }, (_, hour) => (
                <option key={hour} value={hour}>
                  {/* In the 12-hour clock every other time on the screens uses (and the messages' own times). */}
                  {`${hour % 12 || 12}:00 ${hour < 12 ? 'AM' : 'PM'}`}
                </option>
              ))}
            </select>
          </div>
        </CardContent>
      </Card>
      <Card>
        <CardHeader>
          <CardTitle>Wording</CardTitle>
          <CardDescription>
            Placeholders:{' '}
            {Object.keys(MESSAGE_PLACEHOLDERS)
              .map((p) => `{{${p}}}`)
              .join(', ')}
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          <div className="grid gap-1.5 sm:max-w-xs">
            <Label htmlFor="template-kind">Message</Label>
            <select
              id="template-kind"
              className="border-input bg-background h-9 rounded-md border px-2 text-sm"
              value={kind}
              onChange={(e) => setKind(e.target.value as MessageKind)}
            >
              {MESSAGE_KINDS.map((k) => (
                <option key={k} value={k}>
                  {MESSAGE_KIND_LABELS[k]}
                </option>
              ))}
            </select>
          </div>
          <div className="grid gap-4 lg:grid-cols-2">
            <div className="grid content-start gap-3">
              <div className="grid gap-1.5">
                <Label htmlFor="template-subject">E-mail subject</Label>
                <Input id="template-subject" value={current.subject} onChange={edit('subject')} />
              </div>
              <div className="grid gap-1.5">
                <Label htmlFor="template-email">E-mail text</Label>
                <Textarea id="template-email" rows={8} value={current.emailBody} onChange={edit('emailBody')} />
              </div>
              <div className="grid gap-1.5">
                <Label htmlFor="template-sms">Text message</Label>
                <Textarea id="template-sms" rows={3} value={current.smsBody} onChange={edit('smsBody')} />
              </div>
              {unknown.length > 0 ? <p className="text-destructive text-sm">Unknown placeholders: {unknown.join(', ')}</p> : null}
            </div>
            <section aria-label="Preview" className="bg-muted/40 grid content-start gap-3 rounded-lg border p-4 text-sm">
              <h3 className="font-medium">Preview (sample customer)</h3>
              <p>
                <span className="text-muted-foreground">Subject: </span>
                {renderTemplate(current.subject, values)}
              </p>
              <p className="whitespace-pre-wrap">{renderTemplate(current.emailBody, values)}</p>
              <hr />
              <p className="whitespace-pre-wrap">{renderTextMessage(current.smsBody, values)}</p>
            </section>
          </div>
        </CardContent>
      </Card>
      <div className="flex justify-end">
        <Button onClick={handleSave} disabled={save.isPending || unknown.length > 0}>
          {save.isPending ? 'Saving...' : 'Save templates'}
        </Button>
      </div>
    </div>
  );
}
