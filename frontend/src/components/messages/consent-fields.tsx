import type { CustomerConsent } from '@crm/projections/messages';
import { formatDateTime } from '@crm/projections/shared';
import { Checkbox } from '@/components/ui/checkbox';

export interface ConsentValue {
  emailConsent: boolean;
  smsConsent: boolean;
}

function changed(change: CustomerConsent['emailConsentChanged']): string | undefined {
  if (!change) return undefined;
  const how = change.source === 'sms-reply' ? ' (replied STOP)' : change.source === 'unsubscribe-link' ? ' (unsubscribe link)' : '';
  return `Last changed by ${change.by}${how}, ${formatDateTime(change.at)}`;
}

/** The customer form's consent toggles: no consent, nothing is sent on that channel. */
export function ConsentFields({
  value,
  onChange,
  recorded,
  disabled,
}: {
  value: ConsentValue;
  onChange: (value: ConsentValue) => void;
  recorded?: CustomerConsent;
  disabled?: boolean;
}) {
  return (
    <fieldset className="grid gap-2">
      <legend className="mb-1 text-sm font-medium">Messages the customer agreed to</legend>
      <Checkbox
        id="consent-email"
        label="E-mail"
        description={changed(recorded?.emailConsentChanged ?? null) ?? 'Confirmations, reminders and pickup notices by e-mail'}
        checked={value.emailConsent}
        disabled={disabled}
        onChange={(event) => onChange({ ...value, emailConsent: event.target.checked })}
      />
      <Checkbox
        id="consent-sms"
        label="Text messages"
        description={changed(recorded?.smsConsentChanged ?? null) ?? 'The same by text message to the phone number'}
        checked={value.smsConsent}
        disabled={disabled}
        onChange={(event) => onChange({ ...value, smsConsent: event.target.checked })}
      />
    </fieldset>
  );
}
