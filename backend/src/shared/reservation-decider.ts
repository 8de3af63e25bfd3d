import type { DomainEventOf } from '@crm/projections/events';
import { assertNever } from '@crm/projections/shared';

/**
 * A name's reservation (a subdomain, a username, a job, customer, service-request or
 * invoice number, a VIN): one stream per name, holding the name while its last event is a
 * reservation. Its own small decider, so which events take and free a name is typed here
 * and not read from the event names.
 */
export const RESERVED_EVENT_TYPES = [
  'SubdomainReserved',
  'UsernameReserved',
  'CustomerNumberReserved',
  'ServiceRequestNumberReserved',
  'JobNumberReserved',
  'InvoiceNumberReserved',
  'VinReserved',
] as const;
export const RELEASED_EVENT_TYPES = ['UsernameReleased', 'JobNumberReleased', 'VinReleased'] as const;

export type ReservedEvent = DomainEventOf<(typeof RESERVED_EVENT_TYPES)[number]>;
export type ReleasedEvent = DomainEventOf<(typeof RELEASED_EVENT_TYPES)[number]>;
export type ReservationEvent = ReservedEvent | ReleasedEvent;

/** Free, or held by what the reservation that took it recorded (the instance, user or job). */
export type ReservationState = { status: 'free' } | { status: 'held'; holder: ReservedEvent['data'] };

export type ReservationCommand = { type: 'Reserve'; reserved: ReservedEvent } | { type: 'Release'; released: ReleasedEvent };

/** A name held already: the caller says what is taken, in its own words. */
export class NameTakenError extends Error {
  constructor() {
    super('The name is taken');
    this.name = 'NameTakenError';
  }
}

const RESERVATION_TYPES: readonly string[] = [...RESERVED_EVENT_TYPES, ...RELEASED_EVENT_TYPES];

export function isReservationEvent<E extends { type: string }>(event: E): event is E & ReservationEvent {
  return RESERVATION_TYPES.includes(event.type);
}

export const reservationDecider = {
  initialState: { status: 'free' } as ReservationState,

  evolve(_state: ReservationState, event: ReservationEvent): ReservationState {
    switch (event.type) {
      case 'SubdomainReserved':
      case 'UsernameReserved':
      case 'CustomerNumberReserved':
      case 'ServiceRequestNumberReserved':
      case 'JobNumberReserved':
      case 'InvoiceNumberReserved':
      case 'VinReserved':
        return { status: 'held', holder: event.data };
      case 'UsernameReleased':
      case 'JobNumberReleased':
      case 'VinReleased':
        return { status: 'free' };
      default:
        return assertNever(event, 'event');
    }
  },

  /** Reserving a held name throws NameTakenError; releasing a free one is a no-op. */
  decide(command: ReservationCommand, state: ReservationState): ReservationEvent[] {
    switch (command.type) {
      case 'Reserve':
        if (state.status === 'held') throw new NameTakenError();
        return [command.reserved];
      case 'Release':
        return state.status === 'held' ? [command.released] : [];
      default:
        return assertNever(command, 'command');
    }
  },
};

/** A reservation stream's state (other events, which such a stream never holds, change nothing). */
export function reservationOf(events: readonly { type: string; data: unknown }[]): ReservationState {
  let state = reservationDecider.initialState;
  for (const event of events) if (isReservationEvent(event)) state = reservationDecider.evolve(state, event);
  return state;
}

/** Who holds the name (what its reservation recorded), or null when it is free. */
export function holderOf(events: readonly { type: string; data: unknown }[]): Record<string, unknown> | null {
  const state = reservationOf(events);
  return state.status === 'held' ? state.holder : null;
}
