import type { DomainEventOf } from '@crm/projections/events';
import {
  DEFAULT_REMINDER_HOUR,
  DEFAULT_TEMPLATES,
  MESSAGE_KINDS,
  MESSAGE_TEMPLATE_FIELDS,
  MESSAGING_SETTING_FIELDS,
  type MessageKind,
  type MessageTemplate,
  type MessageTemplateInput,
  type MessagingSettings,
  type MessagingSettingsInput,
} from '@crm/projections/messages';
import type { Decider } from '../shared/commands.ts';

/** A shop's templates and messaging settings: one stream per instance. */
export const messagingStream = (instanceId: string) => `messaging-${instanceId}`;

export type MessagingEvent = DomainEventOf<'MessageTemplateChanged' | 'MessagingSettingsChanged'>;

export interface MessagingState {
  settings: MessagingSettings;
  templates: Record<MessageKind, MessageTemplate>;
  /** Kinds the shop has changed. */
  changed: MessageKind[];
}

export type MessagingCommand = {
  type: 'ChangeMessaging';
  instanceId: string;
  settings?: MessagingSettingsInput;
  templates?: MessageTemplateInput[];
};

export const DEFAULT_MESSAGING_SETTINGS: MessagingSettings = { fromAddress: '', shopPhone: '', reminderHour: DEFAULT_REMINDER_HOUR };

export const messagingDecider: Decider<MessagingState, MessagingCommand, MessagingEvent> = {
  initialState: { settings: DEFAULT_MESSAGING_SETTINGS, templates: { ...DEFAULT_TEMPLATES }, changed: [] },
  evolve(state, event) {
    switch (event.type) {
      case 'MessageTemplateChanged': {
        const template = { ...state.templates[event.data.kind] };
        for (const change of event.data.changes) template[change.field] = change.newValue;
        const changed = state.changed.includes(event.data.kind) ? state.changed : [...state.changed, event.data.kind];
        return { ...state, templates: { ...state.templates, [event.data.kind]: template }, changed };
      }
      case 'MessagingSettingsChanged': {
        const settings: Record<string, unknown> = { ...state.settings };
        for (const change of event.data.changes) settings[change.field] = change.newValue;
        return { ...state, settings: settings as unknown as MessagingSettings };
      }
      default: {
        const unexpected: never = event;
        return unexpected;
      }
    }
  },
  decide(command, state) {
    const events: MessagingEvent[] = [];
    if (command.settings) {
      const changes = [];
      for (const field of MESSAGING_SETTING_FIELDS) {
        const value = command.settings[field];
        if (value === undefined || value === state.settings[field]) continue;
        changes.push({ field, oldValue: state.settings[field], newValue: value });
      }
      if (changes.length > 0) events.push({ type: 'MessagingSettingsChanged', data: { instanceId: command.instanceId, changes } });
    }
    for (const template of command.templates ?? []) {
      if (!MESSAGE_KINDS.includes(template.kind)) continue;
      const current = state.templates[template.kind];
      const changes = MESSAGE_TEMPLATE_FIELDS.filter((field) => template[field] !== current[field]).map((field) => ({
        field,
        oldValue: current[field],
        newValue: template[field],
      }));
      if (changes.length > 0)
        events.push({ type: 'MessageTemplateChanged', data: { instanceId: command.instanceId, kind: template.kind, changes } });
    }
    return events;
  },
};
