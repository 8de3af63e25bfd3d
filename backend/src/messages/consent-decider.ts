import type { DomainEventOf } from '@crm/projections/events';
import { CONSENT_SOURCES, MESSAGE_CHANNELS, type MessageChannel } from '@crm/projections/messages';
import type { Decider } from '../shared/commands.ts';

/** A customer's consent to be messaged, per channel: a stream of its own beside the customer's. */
export const consentStream = (customerId: string) => `customerconsent-${customerId}`;

export type ConsentEvent = DomainEventOf<'CustomerConsentChanged'>;
export type ConsentSource = (typeof CONSENT_SOURCES)[number];

/** No consent until it is given: a customer nobody asked gets nothing. */
export type ConsentState = Record<MessageChannel, boolean>;

export type ConsentCommand = {
  type: 'ChangeConsent';
  customerId: string;
  instanceId: string;
  consent: Partial<ConsentState>;
  source: ConsentSource;
};

export const consentDecider: Decider<ConsentState, ConsentCommand, ConsentEvent> = {
  initialState: { email: false, sms: false },
  evolve(state, event) {
    switch (event.type) {
      case 'CustomerConsentChanged':
        return { ...state, [event.data.channel]: event.data.newValue };
      default: {
        const unexpected: never = event.type;
        return unexpected;
      }
    }
  },
  decide(command, state) {
    const events: ConsentEvent[] = [];
    for (const channel of MESSAGE_CHANNELS) {
      const value = command.consent[channel];
      if (value === undefined || value === state[channel]) continue;
      events.push({
        type: 'CustomerConsentChanged',
        data: {
          customerId: command.customerId,
          instanceId: command.instanceId,
          channel,
          oldValue: state[channel],
          newValue: value,
          source: command.source,
        },
      });
    }
    return events;
  },
};
