import {
  customerConsentInput,
  customerConsentSchema,
  messageListQuery,
  messagePageSchema,
  messageTemplatesInput,
  messageTemplatesSchema,
  messageViewSchema,
} from '@crm/projections/messages';
import { RESERVED_INSTANCE_SUBDOMAIN } from '@crm/projections/platform';
import { queryParam } from '@crm/projections/shared';
import { z } from 'zod';
import type { AppDeps } from '../deps.ts';
import { access, userOf, type ApiContext, type ApiHandler, type ApiRouter, type RouteDoc, type RouteOptions } from '../http/router.ts';
import { parseInput } from '../http/validation.ts';
import { commandContext } from '../http/command-context.ts';
import type { InstanceContext } from '../shared/commands.ts';
import { AppError, NotFoundError } from '../shared/errors.ts';
import { publicBaseUrl, SMS_INBOUND_PATH, UNSUBSCRIBE_PATH, validTwilioSignature } from './links.ts';
import { listMessages, type MessageReader } from './message-queries.ts';
import {
  getCustomerConsent,
  getMessageTemplates,
  readUnsubscribeLink,
  retryMessage,
  setCustomerConsent,
  unsubscribeByToken,
  updateMessageTemplates,
  withdrawSmsConsentOf,
} from './message-service.ts';

/** The instance families of the routes: the session's instance, the provider's own, the one named in the path. */
const FAMILIES: ReadonlyArray<{ base: string; options?: RouteOptions }> = [
  { base: '/api' },
  { base: `/api/${RESERVED_INSTANCE_SUBDOMAIN}`, options: { pathInstance: RESERVED_INSTANCE_SUBDOMAIN } },
  { base: '/api/:instance' },
];

const TAG = 'messages';

const tokenQuery = z.object({
  token: queryParam('token').min(1, 'token is required').max(400, 'token is too long'),
});

const DOCS = {
  list: {
    summary: "The shop's customer messages (the outbox), newest first, by status, job or customer, in keyset pages",
    tag: TAG,
    query: messageListQuery,
    response: messagePageSchema,
  },
  retry: {
    summary: 'Send a failed or unsent message again (409 for one queued or sent)',
    tag: TAG,
    response: messageViewSchema,
    status: 200,
    answers: { 409: 'The message is queued or sent already' },
  },
  templates: {
    summary: "The shop's message templates per kind (its own or the built-in wording), its messaging settings and which channels can send",
    tag: TAG,
    response: messageTemplatesSchema,
  },
  updateTemplates: {
    summary: 'Change message templates and messaging settings (admins): what is sent changes, what is left out stays',
    tag: TAG,
    body: messageTemplatesInput,
    response: messageTemplatesSchema,
  },
  consent: { summary: "A customer's consent to e-mail and texts, with who changed it last", tag: TAG, response: customerConsentSchema },
  setConsent: {
    summary: "Record a customer's consent to e-mail and/or texts (the customer form's toggles)",
    tag: TAG,
    body: customerConsentInput,
    response: customerConsentSchema,
  },
  unsubscribePage: {
    summary: "The e-mails' unsubscribe link: a page that asks to confirm (no sign-in; the token names the customer)",
    tag: TAG,
    query: tokenQuery,
    produces: 'text/html',
  },
  unsubscribe: {
    summary: 'Withdraw the consent the unsubscribe token names (no sign-in)',
    tag: TAG,
    query: tokenQuery,
    produces: 'text/html',
    status: 200,
  },
  smsInbound: {
    summary: "Twilio's webhook for inbound texts (X-Twilio-Signature checked): STOP withdraws the sender's consent to texts",
    tag: TAG,
    produces: 'text/xml',
    status: 200,
  },
} satisfies Record<string, RouteDoc>;

const STOP_WORDS = new Set(['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT']);

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;line-height:1.5;color:#111;background:#fff}@media (prefers-color-scheme:dark){body{color:#eee;background:#111}}button{font:inherit;padding:.5rem 1rem;border-radius:.375rem;border:1px solid currentColor;background:transparent;color:inherit;cursor:pointer}</style>
</head><body><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`;
}

const INVALID_UNSUBSCRIBE_LINK = 'This unsubscribe link is not valid';

/**
 * A forged or outdated unsubscribe link: a person who clicked it in an e-mail reads a page saying
 * so (a 404 in words, not a JSON body); other callers get the usual problem details.
 */
function invalidUnsubscribeLink(ctx: ApiContext): void {
  if (ctx.accepts('application/json', 'text/html') !== 'text/html') throw new NotFoundError(INVALID_UNSUBSCRIBE_LINK);
  ctx.status = 404;
  ctx.type = 'text/html';
  ctx.body = page(
    'Link not valid',
    `<p>${INVALID_UNSUBSCRIBE_LINK}: it may have been copied only in part. Use the link in the shop's latest e-mail, or ask the shop to stop sending you e-mails.</p>`,
  );
}

async function readForm(ctx: ApiContext, limit = 64 * 1024): Promise<Record<string, string>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw new AppError('too-large', 'The request body is too large');
    chunks.push(chunk);
  }
  return Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
}

export function registerMessageRoutes(router: ApiRouter, deps: AppDeps): void {
  const instanceOf = (ctx: ApiContext) => userOf(ctx).instance.id;
  const readerOf = (ctx: ApiContext): MessageReader => ({ isAdmin: userOf(ctx).role === 'admin' });
  const commandCtx = (ctx: ApiContext): InstanceContext => {
    const instanceId = instanceOf(ctx);
    return { ...commandContext(ctx, deps, instanceId), instanceId };
  };

  const list: ApiHandler = async (ctx) => {
    ctx.body = await listMessages(deps.knex, instanceOf(ctx), parseInput(messageListQuery, ctx.query), readerOf(ctx));
  };
  const retry: ApiHandler = async (ctx) => {
    ctx.body = await retryMessage(deps, ctx.params.id ?? '', commandCtx(ctx), readerOf(ctx));
  };
  const templates: ApiHandler = async (ctx) => {
    ctx.body = await getMessageTemplates(deps, instanceOf(ctx));
  };
  const updateTemplates: ApiHandler = async (ctx) => {
    const input = parseInput(messageTemplatesInput, ctx.request.body);
    ctx.body = await updateMessageTemplates(deps, input, commandCtx(ctx));
  };
  const consent: ApiHandler = async (ctx) => {
    ctx.body = await getCustomerConsent(deps, instanceOf(ctx), ctx.params.id ?? '');
  };
  const setConsent: ApiHandler = async (ctx) => {
    const input = parseInput(customerConsentInput, ctx.request.body);
    ctx.body = await setCustomerConsent(deps, ctx.params.id ?? '', input, commandCtx(ctx));
  };

  const read = access.can('canRead');
  const write = access.can('canWrite');
  for (const { base, options } of FAMILIES) {
    router.get(`${base}/messages`, read, list, { ...options, doc: DOCS.list });
    router.post(`${base}/messages/:id/retry`, write, retry, { ...options, doc: DOCS.retry });
    router.get(`${base}/message-templates`, read, templates, { ...options, doc: DOCS.templates });
    router.put(`${base}/message-templates`, access.admin, updateTemplates, { ...options, doc: DOCS.updateTemplates });
    router.get(`${base}/customers/:id/consent`, read, consent, { ...options, feature: 'customers', doc: DOCS.consent });
    router.put(`${base}/customers/:id/consent`, write, setConsent, { ...options, feature: 'customers', doc: DOCS.setConsent });
  }

  // ---- what customers reach without signing in ---------------------------------------------

  router.get(
    UNSUBSCRIBE_PATH,
    access.public,
    async (ctx) => {
      const { token } = parseInput(tokenQuery, ctx.query);
      const link = await readUnsubscribeLink(deps, token);
      if (!link) return invalidUnsubscribeLink(ctx);
      ctx.type = 'text/html';
      ctx.body = page(
        'Unsubscribe',
        `<p>Stop receiving e-mails from ${escapeHtml(link.shopName)}?</p><form method="post" action="${UNSUBSCRIBE_PATH}?token=${encodeURIComponent(token)}"><button type="submit">Unsubscribe</button></form>`,
      );
    },
    { doc: DOCS.unsubscribePage },
  );

  router.post(
    UNSUBSCRIBE_PATH,
    access.public,
    async (ctx) => {
      const { token } = parseInput(tokenQuery, ctx.query);
      const done = await unsubscribeByToken(deps, token);
      if (!done) return invalidUnsubscribeLink(ctx);
      ctx.type = 'text/html';
      ctx.body = page('Unsubscribed', `<p>You will receive no more e-mails from ${escapeHtml(done.shopName)}.</p>`);
    },
    { doc: DOCS.unsubscribe, takesForm: true },
  );

  router.post(
    SMS_INBOUND_PATH,
    access.public,
    async (ctx) => {
      const token = deps.config.TWILIO_AUTH_TOKEN;
      if (!token) throw new NotFoundError('No text-message provider is configured');
      const params = await readForm(ctx);
      const url = `${publicBaseUrl(deps.config)}${ctx.originalUrl}`;
      if (!validTwilioSignature(token, url, params, ctx.get('x-twilio-signature'))) {
        throw new AppError('not-allowed', 'The request signature does not match');
      }
      const word = (params.Body ?? '').trim().toUpperCase();
      if (STOP_WORDS.has(word) && params.From) {
        const withdrawn = await withdrawSmsConsentOf(deps, params.From);
        deps.logger.info({ withdrawn }, 'inbound STOP: consent to texts withdrawn');
      }
      ctx.type = 'text/xml';
      ctx.body = '<?xml version="1.0" encoding="UTF-8"?><Response></Response>';
    },
    { doc: DOCS.smsInbound, takesForm: true },
  );
}
