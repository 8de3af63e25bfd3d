import type { CustomerMatch } from '@crm/projections/customers';
import { useQueryClient } from '@tanstack/react-query';
import { type RefObject, useId, useLayoutEffect, useRef, useState } from 'react';
import { Button } from '@/components/ui/button';
import { UsersIcon } from '@/components/ui/icons';
import { getCustomerMatches, type MatchCriteria, usableCriteria, useCustomerMatches } from '@/lib/api/customer-matches';
import { customersQueryKey } from '@/lib/api/resources';
import { cn } from '@/lib/cn';

const NONE_DECLINED: ReadonlySet<string> = new Set();
const MATCHED_ON_WORDS = { name: 'same name', phone: 'same phone', email: 'same email' } as const;

export interface CustomerMatchOffer {
  /** The matches not yet turned down with Create new anyway. */
  matches: CustomerMatch[];
  /**
   * Create new anyway: these matches are not the person with this name, phone and email. A
   * new match, or any match once the name, phone or email changes, is offered again.
   */
  decline: () => void;
  /**
   * Before a save that would make a new customer: asks the server with what is typed now
   * (the list shown waits for typing to pause) and says whether there are matches still to
   * answer; when there are, the offer asks for an answer and takes the focus.
   */
  mustAnswer: () => Promise<boolean>;
  /** Asked for an answer by a save (the offer says so). */
  asked: boolean;
  regionRef: RefObject<HTMLElement | null>;
}

/**
 * One customer per person: while a screen is about to make a new customer (`enabled`), the
 * existing customers with the same name, phone or email, so the user takes one of them
 * instead of making a duplicate, or says Create new anyway.
 */
export function useCustomerMatchOffer(instance: string, criteria: MatchCriteria, enabled: boolean): CustomerMatchOffer {
  const queryClient = useQueryClient();
  const shown = useCustomerMatches(instance, criteria, enabled);
  /** Turned down for the criteria as they were then (compared as the server does: no case, no extra spaces). */
  const [declined, setDeclined] = useState<{ key: string; ids: ReadonlySet<string> }>({ key: '', ids: new Set() });
  /** What a save found with the criteria as they were then (the shown list may still be waiting). */
  const [checked, setChecked] = useState<{ key: string; items: CustomerMatch[] } | null>(null);
  const [asked, setAsked] = useState(false);
  const regionRef = useRef<HTMLElement | null>(null);
  /** Counts the saves that asked for an answer: each one puts the focus on the offer once it is drawn. */
  const [focusAsks, setFocusAsks] = useState(0);
  // After the render that draws the offer (its ref is set by then), not on a timer, which a
  // busy machine can run before React has drawn it.
  useLayoutEffect(() => {
    if (focusAsks > 0) regionRef.current?.focus();
  }, [focusAsks]);
  const key = JSON.stringify(criteria);
  const declineKey = JSON.stringify(usableCriteria(criteria)).toLowerCase();
  const declinedIds = declined.key === declineKey ? declined.ids : NONE_DECLINED;
  const all = enabled ? (checked?.key === key ? checked.items : (shown.data ?? [])) : [];
  const matches = all.filter((match) => !declinedIds.has(match.id));

  return {
    matches,
    asked: asked && matches.length > 0,
    regionRef,
    decline: () => {
      setDeclined({ key: declineKey, ids: new Set([...declinedIds, ...matches.map((match) => match.id)]) });
      setAsked(false);
    },
    mustAnswer: async () => {
      if (!enabled) return false;
      let items: CustomerMatch[];
      try {
        items = await queryClient.fetchQuery({
          queryKey: [...customersQueryKey(instance), 'matches-now', key] as const,
          queryFn: ({ signal }) => getCustomerMatches(instance, criteria, signal),
          staleTime: 2_000,
        });
      } catch {
        // The check is a courtesy: a failed one does not stop the save.
        return false;
      }
      setChecked({ key, items });
      const open = items.some((match) => !declinedIds.has(match.id));
      if (open) {
        setAsked(true);
        setFocusAsks((asks) => asks + 1);
      }
      return open;
    },
  };
}

/**
 * The offer: each match with what it matched on and Use this customer, and Create new
 * anyway. Nothing is drawn while there is nothing to offer.
 */
export function CustomerMatchOfferPanel({
  offer,
  onUse,
  onCreateNew,
  createLabel = 'Create new anyway',
  className,
}: {
  offer: CustomerMatchOffer;
  onUse: (match: CustomerMatch) => void;
  /** After Create new anyway turned the matches down (e.g. go on to make the job). */
  onCreateNew?: () => void;
  createLabel?: string;
  className?: string;
}) {
  const { matches } = offer;
  const titleId = useId();
  if (matches.length === 0) return null;
  return (
    <section
      ref={offer.regionRef}
      tabIndex={-1}
      aria-labelledby={titleId}
      className={cn(
        'grid gap-2 rounded-md border bg-muted/40 p-3 text-sm outline-none',
        offer.asked && 'border-amber-500 ring-2 ring-amber-500/40',
        className,
      )}
    >
      <h2 id={titleId} className="flex items-center gap-2 font-medium">
        <UsersIcon className="size-4 shrink-0" />
        Already a customer? {matches.length === 1 ? 'One customer has' : `${matches.length} customers have`} this name, phone or email
      </h2>
      {offer.asked ? (
        <p role="alert" className="font-medium text-amber-700 dark:text-amber-400">
          Use one of them, or choose {createLabel} to make a new customer.
        </p>
      ) : null}
      <ul className="grid gap-2">
        {matches.map((match) => (
          <li key={match.id} className="flex flex-wrap items-center justify-between gap-2">
            <span className="min-w-0">
              <strong>{match.name || '(no name)'}</strong> <span className="text-muted-foreground">#{match.number}</span>
              {match.phone ? <span className="text-muted-foreground"> · {match.phone}</span> : null}
              {match.email ? <span className="text-muted-foreground"> · {match.email}</span> : null}
              {match.vehicles.length > 0 ? <span className="text-muted-foreground"> · {match.vehicles.join(', ')}</span> : null}
              <span className="text-muted-foreground"> · {match.matchedOn.map((on) => MATCHED_ON_WORDS[on]).join(', ')}</span>
            </span>
            <Button
              type="button"
              size="sm"
              variant="outline"
              aria-label={`Use this customer: ${match.name || `#${match.number}`}`}
              onClick={() => onUse(match)}
            >
              Use this customer
            </Button>
          </li>
        ))}
      </ul>
      <div>
        <Button
          type="button"
          size="sm"
          variant="secondary"
          onClick={() => {
            offer.decline();
            onCreateNew?.();
          }}
        >
          {createLabel}
        </Button>
      </div>
    </section>
  );
}
