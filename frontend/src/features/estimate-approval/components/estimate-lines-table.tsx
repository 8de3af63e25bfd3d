import { type EstimateDecisionView, formatMoney, type LineView, parseMoney } from '@crm/projections/contract';
import { Badge } from '@/components/ui/badge';
import { cn } from '@/lib/cn';

type Choice = 'approve' | 'decline';
type PublicLine = Omit<LineView, 'unitCost'>;

const KIND: Record<PublicLine['kind'], string> = { part: 'Part', labor: 'Labor', fee: 'Fee', discount: 'Discount' };

const money = (text: string | null) => formatMoney(parseMoney(text ?? '0', { negative: true }) ?? 0);

/** How the line's amount comes about: "2 × $45.00", "1.5 h × $120.00", "10 %". */
function lineDetail(line: PublicLine): string {
  if (line.kind === 'part') return `${line.quantity} × ${money(line.unitPrice)}${line.partNumber ? ` · ${line.partNumber}` : ''}`;
  if (line.kind === 'labor') return `${line.hours} h × ${money(line.rate)}${line.technician ? ` · ${line.technician}` : ''}`;
  return line.percent !== null ? `${line.percent} %` : '';
}

/**
 * The estimate's lines for the customer: with `choices`, an Approve / Decline pair per line
 * (a radio group each); otherwise what was decided, marked.
 */
export function EstimateLinesTable({
  lines,
  decision,
  choices,
  onChoose,
}: {
  lines: readonly PublicLine[];
  decision: EstimateDecisionView | null;
  choices: Record<string, Choice> | null;
  onChoose: (id: string, choice: Choice) => void;
}) {
  return (
    <ol className="grid divide-y rounded-lg border" aria-label="Estimate lines">
      {lines.map((line) => {
        const declined = choices ? choices[line.id] === 'decline' : decision?.declinedLineIds.includes(line.id);
        const approved = !choices && decision?.approvedLineIds.includes(line.id);
        const label = line.description || KIND[line.kind];
        return (
          <li key={line.id} className="grid gap-2 p-3 sm:grid-cols-[minmax(0,1fr)_auto_auto] sm:items-center sm:gap-4" aria-label={label}>
            <div className={cn('grid min-w-0 gap-0.5', declined && 'text-muted-foreground line-through')}>
              <span className="font-medium">
                <span className="mr-2 text-xs font-normal text-muted-foreground no-underline">{KIND[line.kind]}</span>
                {label}
              </span>
              {lineDetail(line) ? <span className="text-xs text-muted-foreground">{lineDetail(line)}</span> : null}
            </div>
            <span className={cn('text-right font-semibold tabular-nums', declined && 'text-muted-foreground line-through')}>
              {money(line.total)}
            </span>
            {choices ? (
              <div role="radiogroup" aria-label={`Your decision on ${label}`} className="flex gap-1">
                {(['approve', 'decline'] as const).map((choice) => (
                  <label
                    key={choice}
                    className={cn(
                      'inline-flex h-9 cursor-pointer items-center gap-1.5 rounded-md border px-3 text-sm font-medium has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-ring',
                      choices[line.id] === choice &&
                        (choice === 'approve'
                          ? 'border-success bg-success/15 text-success'
                          : 'border-destructive bg-destructive/10 text-destructive'),
                    )}
                  >
                    <input
                      type="radio"
                      name={`decision-${line.id}`}
                      value={choice}
                      checked={choices[line.id] === choice}
                      onChange={() => onChoose(line.id, choice)}
                      className="sr-only"
                    />
                    {choice === 'approve' ? 'Approve' : 'Decline'}
                  </label>
                ))}
              </div>
            ) : approved ? (
              <Badge variant="success">Approved</Badge>
            ) : declined ? (
              <Badge variant="destructive">Declined</Badge>
            ) : (
              <span />
            )}
          </li>
        );
      })}
    </ol>
  );
}
