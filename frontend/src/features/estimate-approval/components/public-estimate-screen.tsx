import {
  approvedTotalOf,
  type EstimateStatus,
  formatDateTime,
  formatMoney,
  parseMoney,
  type PublicEstimate,
  REPAIR_ORDER_LIMITS,
} from '@crm/projections/contract';
import { type FormEvent, useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { ApiError, errorMessage } from '@/lib/api-error';
import { cn } from '@/lib/cn';
import { usePageTitle } from '@/lib/use-page-title';
import { useDecideEstimate, usePublicEstimate } from '../api/public-estimate';
import { EstimateLinesTable } from './estimate-lines-table';

type Choice = 'approve' | 'decline';

/** Why a link no longer takes a decision, in the customer's words. */
const CLOSED: Partial<Record<EstimateStatus, string>> = {
  revoked: 'The shop has withdrawn this estimate link.',
  expired: 'This estimate link has expired.',
  superseded: 'The shop has sent a newer version of this estimate: use the newest link they sent you.',
};

const cents = (text: string) => parseMoney(text, { negative: true }) ?? 0;

/**
 * /estimate/{token}: the shop's estimate as it was sent, for the customer to approve or
 * decline line by line without signing in; they type their name and confirm. A revoked,
 * expired or replaced link says so; a decided one shows what was decided.
 */
export function PublicEstimateScreen({ token }: { token: string }) {
  const estimate = usePublicEstimate(token);
  usePageTitle(estimate.data ? `Estimate · ${estimate.data.shop.name}` : 'Estimate');

  if (estimate.isPending) return <Spinner label="Loading the estimate..." className="py-16" />;
  if (estimate.isError) {
    const missing = estimate.error instanceof ApiError && estimate.error.status === 404;
    return (
      <section className="mx-auto grid max-w-md gap-3 py-16 text-center">
        <h1 className="text-2xl font-semibold">Estimate</h1>
        <p className="text-muted-foreground">
          {missing
            ? 'There is no estimate at this address. Check the link the shop sent you.'
            : errorMessage(estimate.error, 'The estimate could not be loaded. Try again in a moment.')}
        </p>
      </section>
    );
  }
  return <EstimateDocument key={`${estimate.data.version}-${estimate.data.status}`} token={token} estimate={estimate.data} />;
}

function EstimateDocument({ token, estimate }: { token: string; estimate: PublicEstimate }) {
  const decide = useDecideEstimate(token);
  const [choices, setChoices] = useState<Record<string, Choice>>(() =>
    Object.fromEntries(estimate.lines.map((line) => [line.id, 'approve' as Choice])),
  );
  const [name, setName] = useState(estimate.customerName);
  const [error, setError] = useState<string | null>(null);
  const closed = CLOSED[estimate.status];
  const open = estimate.status === 'sent' && !estimate.decision;
  // The shop's clock, wherever the customer opens the link (nobody is signed in to name the
  // shop), with the zone named: the customer may be in another one.
  const shopClock = { timeZone: estimate.shop.timeZone, zoneName: true };
  // By the shop's rounding rule, not a sum of the amounts as sent: a percentage fee or a
  // whole-job discount changes with the lines left in.
  const approvedTotal = approvedTotalOf(
    estimate.lines,
    estimate.taxRates,
    new Set(
      estimate.decision
        ? estimate.decision.approvedLineIds
        : estimate.lines.filter((line) => choices[line.id] === 'approve').map((line) => line.id),
    ),
  );

  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (decide.isPending) return;
    if (!name.trim()) {
      setError('Type your name to confirm');
      return;
    }
    setError(null);
    decide.mutate(
      {
        name: name.trim(),
        approvedLineIds: estimate.lines.filter((line) => choices[line.id] === 'approve').map((line) => line.id),
        declinedLineIds: estimate.lines.filter((line) => choices[line.id] === 'decline').map((line) => line.id),
      },
      {
        onError: (failure) =>
          setError(
            failure instanceof ApiError && failure.status === 429
              ? 'Too many attempts from here: wait a few minutes and try again.'
              : errorMessage(failure, 'Your decision could not be recorded. Try again.'),
          ),
      },
    );
  };

  return (
    <div className="mx-auto grid max-w-3xl gap-6">
      <Card>
        <CardHeader className="gap-1">
          <CardTitle className="text-2xl">{estimate.shop.name || 'Estimate'}</CardTitle>
          <CardDescription className="grid gap-0.5">
            {[estimate.shop.address, estimate.shop.phone, estimate.shop.email].filter(Boolean).map((text) => (
              <span key={text} className="whitespace-pre-line">
                {text}
              </span>
            ))}
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          <div className="grid gap-1 text-sm">
            <h1 className="text-lg font-semibold">
              Estimate{estimate.jobNumber ? ` for job #${estimate.jobNumber}` : ''}
              {estimate.customerName ? `, ${estimate.customerName}` : ''}
            </h1>
            {estimate.vehicle ? <p>Vehicle: {estimate.vehicle}</p> : null}
            <p className="text-muted-foreground">
              Version {estimate.version}, sent {formatDateTime(estimate.sentAt, shopClock)}.{' '}
              {open ? `This link is good until ${formatDateTime(estimate.expiresAt, shopClock)}.` : ''}
            </p>
          </div>

          {closed ? (
            <Alert variant="info" className="text-base">
              {closed} Call or write to the shop for a new one.
            </Alert>
          ) : null}

          {estimate.decision ? (
            <div role="status" className="rounded-md border border-success/40 bg-success/10 p-3 text-sm">
              <p className="font-semibold">Thank you, {estimate.decision.name}.</p>
              <p>
                Your decision was recorded on {formatDateTime(estimate.decision.decidedAt, shopClock)}:{' '}
                {estimate.decision.approvedLineIds.length} {estimate.decision.approvedLineIds.length === 1 ? 'line' : 'lines'} approved,{' '}
                {estimate.decision.declinedLineIds.length} declined. The shop has been told.
              </p>
            </div>
          ) : null}

          <form onSubmit={handleSubmit} className="grid gap-4" aria-label="Your decision">
            <EstimateLinesTable
              lines={estimate.lines}
              decision={estimate.decision}
              choices={open ? choices : null}
              onChoose={(id, choice) => setChoices((current) => ({ ...current, [id]: choice }))}
            />

            <dl className="ml-auto grid w-full max-w-xs grid-cols-[1fr_auto] gap-x-6 gap-y-1 text-sm">
              {(
                [
                  ['Parts', estimate.totals.parts],
                  ['Labor', estimate.totals.labor],
                  ['Fees', estimate.totals.fees],
                  ['Discounts', `-${estimate.totals.discounts}`],
                  ['Tax', estimate.totals.tax],
                  ['Estimate total', estimate.totals.total],
                ] as const
              ).map(([label, value]) => (
                <div key={label} className="contents">
                  <dt className={cn('text-muted-foreground', label === 'Estimate total' && 'font-semibold text-foreground')}>{label}</dt>
                  <dd className={cn('text-right tabular-nums', label === 'Estimate total' && 'font-semibold')}>
                    {formatMoney(cents(value))}
                  </dd>
                </div>
              ))}
              {open || estimate.decision ? (
                <div className="contents">
                  <dt className="text-muted-foreground">Approved total</dt>
                  <dd className="text-right tabular-nums" data-approved-total>
                    {formatMoney(approvedTotal)}
                  </dd>
                </div>
              ) : null}
            </dl>

            {open ? (
              <div className="grid gap-3 rounded-lg border p-3">
                <div className="grid gap-1">
                  <label htmlFor="decision-name" className="text-sm font-medium">
                    Your name
                  </label>
                  <Input
                    id="decision-name"
                    value={name}
                    onChange={(event) => setName(event.target.value)}
                    maxLength={REPAIR_ORDER_LIMITS.decisionName}
                    autoComplete="name"
                    aria-describedby="decision-name-hint"
                  />
                  <p id="decision-name-hint" className="text-xs text-muted-foreground">
                    Typing your name and confirming records your decision on each line, with the time.
                  </p>
                </div>
                <Alert>{error}</Alert>
                <Button type="submit" aria-disabled={decide.isPending || undefined} className="justify-self-start">
                  {decide.isPending ? 'Sending...' : 'Confirm my decision'}
                </Button>
              </div>
            ) : null}
          </form>

          {estimate.terms ? (
            <section className="grid gap-1 text-xs text-muted-foreground">
              <h2 className="font-semibold text-foreground">Terms</h2>
              <p className="whitespace-pre-line">{estimate.terms}</p>
            </section>
          ) : null}
          {estimate.footer ? <p className="text-xs whitespace-pre-line text-muted-foreground">{estimate.footer}</p> : null}
        </CardContent>
      </Card>
    </div>
  );
}
