import {
  DEFAULT_TEMPLATES,
  MESSAGE_KINDS,
  MESSAGE_MESSAGES,
  type CustomerConsent,
  type CustomerConsentInput,
  type MessageKind,
  type MessageTemplates,
  type MessageTemplatesInput,
  type MessageView,
} from '@crm/projections/messages';
import { isUuid } from '@crm/projections/shared';
import type { AppDeps } from '../deps.ts';
import { settle } from '../deps.ts';
import { customersWithPhone, findCustomer } from '../customers/index.ts';
import { getInstance } from '../platform/index.ts';
import { executeCommand, loadAggregate, type InstanceContext } from '../shared/commands.ts';
import { NotFoundError } from '../shared/errors.ts';
import { consentDecider, consentStream, type ConsentSource } from './consent-decider.ts';
import { readUnsubscribeToken } from './links.ts';
import { findConsent, findMessage, type MessageReader } from './message-queries.ts';
import { notSetUpNotice } from './message-reasons.ts';
import { messageDecider, messageStream } from './message-decider.ts';
import { messagingDecider, messagingStream } from './messaging-decider.ts';

/** A person's retry of a failed or unsent message: queued again, the sender takes it at once. */
export async function retryMessage(deps: AppDeps, messageId: string, ctx: InstanceContext, reader: MessageReader): Promise<MessageView> {
  if (!isUuid(messageId)) throw new NotFoundError(MESSAGE_MESSAGES.notFound);
  const id = messageId.toLowerCase();
  const result = await executeCommand({
    store: deps.store,
    streamId: messageStream(id),
    decider: messageDecider,
    command: { type: 'RequestRetry', instanceId: ctx.instanceId },
    ctx,
  });
  await settle(deps, result.appended);
  const view = await findMessage(deps.knex, ctx.instanceId, id, reader);
  if (!view) throw new NotFoundError(MESSAGE_MESSAGES.notFound);
  return view;
}

export function deliveryOf(deps: AppDeps): MessageTemplates['delivery'] {
  const c = deps.config;
  return { email: Boolean(c.SMTP_URL), sms: Boolean(c.TWILIO_ACCOUNT_SID && c.TWILIO_AUTH_TOKEN && c.TWILIO_FROM_NUMBER) };
}

/** The shop's templates (its own wording or the built-in one) and messaging settings, from its stream. */
export async function getMessageTemplates(deps: AppDeps, instanceId: string): Promise<MessageTemplates> {
  const [loaded, instance] = await Promise.all([
    loadAggregate(deps.store, messagingStream(instanceId), messagingDecider),
    getInstance(deps.knex, instanceId),
  ]);
  const lastChange = new Map<MessageKind, { at: string; by: string }>();
  for (const event of loaded.events) {
    if (event.type === 'MessageTemplateChanged')
      lastChange.set(event.data.kind, { at: event.recordedAt.toISOString(), by: event.metadata.actor.displayName });
  }
  const { state } = loaded;
  const delivery = deliveryOf(deps);
  return {
    settings: state.settings,
    templates: MESSAGE_KINDS.map((kind) => {
      const template = state.templates[kind];
      const base = DEFAULT_TEMPLATES[kind];
      return {
        kind,
        ...template,
        isDefault: template.subject === base.subject && template.emailBody === base.emailBody && template.smsBody === base.smsBody,
        updatedAt: lastChange.get(kind)?.at ?? null,
        updatedBy: lastChange.get(kind)?.by ?? null,
      };
    }),
    delivery,
    deliveryNotice: notSetUpNotice(delivery),
    shopName: instance.displayName || instance.name,
    timeZone: instance.timeZone,
  };
}

export async function updateMessageTemplates(deps: AppDeps, input: MessageTemplatesInput, ctx: InstanceContext): Promise<MessageTemplates> {
  const result = await executeCommand({
    store: deps.store,
    streamId: messagingStream(ctx.instanceId),
    decider: messagingDecider,
    command: { type: 'ChangeMessaging', instanceId: ctx.instanceId, settings: input.settings, templates: input.templates },
    ctx,
  });
  await settle(deps, result.appended);
  return await getMessageTemplates(deps, ctx.instanceId);
}

// ---- consent ------------------------------------------------------------------------------

async function changeConsent(
  deps: AppDeps,
  customerId: string,
  consent: CustomerConsentInput,
  source: ConsentSource,
  ctx: InstanceContext,
): Promise<CustomerConsent> {
  const result = await executeCommand({
    store: deps.store,
    streamId: consentStream(customerId),
    decider: consentDecider,
    command: {
      type: 'ChangeConsent',
      customerId,
      instanceId: ctx.instanceId,
      consent: { email: consent.emailConsent, sms: consent.smsConsent },
      source,
    },
    ctx,
  });
  await settle(deps, result.appended);
  return await findConsent(deps.knex, ctx.instanceId, customerId);
}

async function liveCustomerId(deps: AppDeps, instanceId: string, customerId: string): Promise<string> {
  const id = isUuid(customerId) ? customerId.toLowerCase() : '';
  if (!id || !(await findCustomer(deps.knex, instanceId, id))) throw new NotFoundError(MESSAGE_MESSAGES.customerNotFound);
  return id;
}

export async function getCustomerConsent(deps: AppDeps, instanceId: string, customerId: string): Promise<CustomerConsent> {
  return await findConsent(deps.knex, instanceId, await liveCustomerId(deps, instanceId, customerId));
}

/** Staff record a customer's consent (the customer form's toggles). */
export async function setCustomerConsent(
  deps: AppDeps,
  customerId: string,
  input: CustomerConsentInput,
  ctx: InstanceContext,
): Promise<CustomerConsent> {
  return await changeConsent(deps, await liveCustomerId(deps, ctx.instanceId, customerId), input, 'staff', ctx);
}

const systemCtx = (deps: AppDeps, instanceId: string, id: string, displayName: string): InstanceContext => ({
  instanceId,
  actor: { kind: 'system', id, displayName },
  correlationId: id,
  now: deps.now(),
});

/** "STOP" from a phone: every customer with that number, in every shop, gets no more texts. */
export async function withdrawSmsConsentOf(deps: AppDeps, phone: string): Promise<number> {
  let withdrawn = 0;
  for (const customer of await customersWithPhone(deps.knex, phone)) {
    await changeConsent(
      deps,
      customer.id,
      { smsConsent: false },
      'sms-reply',
      systemCtx(deps, customer.instanceId, 'sms-stop', 'Text reply STOP'),
    );
    withdrawn++;
  }
  return withdrawn;
}

/** The e-mail's unsubscribe link: its customer gets no more e-mail. Null when the token is not one of ours. */
/** The shop an unsubscribe token was signed for and what it withdraws; null when the token is forged or the shop is gone. */
export async function readUnsubscribeLink(
  deps: AppDeps,
  token: string,
): Promise<{ claim: NonNullable<ReturnType<typeof readUnsubscribeToken>>; shopName: string } | null> {
  const claim = readUnsubscribeToken(deps.config.sessionSecret, token);
  if (!claim) return null;
  const instance = await getInstance(deps.knex, claim.instanceId).catch(() => null);
  if (!instance) return null;
  return { claim, shopName: instance.displayName || instance.name };
}

export async function unsubscribeByToken(deps: AppDeps, token: string): Promise<{ shopName: string } | null> {
  const link = await readUnsubscribeLink(deps, token);
  if (!link) return null;
  const { claim } = link;
  await changeConsent(
    deps,
    claim.customerId,
    claim.channel === 'email' ? { emailConsent: false } : { smsConsent: false },
    'unsubscribe-link',
    systemCtx(deps, claim.instanceId, 'unsubscribe-link', 'Unsubscribe link'),
  );
  return { shopName: link.shopName };
}
