import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Knex } from 'knex';
import type { Context } from 'koa';
import { AppError, ConflictError, ValidationError } from '../shared/errors.ts';

/**
 * Idempotent commands: a write sent with an `Idempotency-Key` header runs once per key and
 * caller; a retry with the same key gets the first answer again (status, body, ETag and
 * Location, marked `Idempotent-Replayed: true`) without running the command a second time.
 * Keys and answers live in PostgreSQL, so this holds across API processes and restarts.
 *
 * - Scope: the caller (instance and user, or the super admin): one user's key never answers
 *   another's request. Public routes take no key (there is no caller to scope it to).
 * - The same key with a different request (method, path or body) is a 422.
 * - A retry while the first request still runs waits for its answer (up to WAIT_MS), then
 *   gets a 409 telling it to try again.
 * - Only successful answers (2xx) are kept: a refused or failed command wrote nothing, so a
 *   retry may run it again (e.g. after fixing the input or when the database is back).
 * - A first request that never finished (its process died before answering) gives its key
 *   up after ABANDONED_MS; the caller never got an answer for it.
 */

export const IDEMPOTENCY_HEADER = 'idempotency-key';
const KEY_PATTERN = /^[\x21-\x7e]{1,200}$/;
const WAIT_MS = 15_000;
const POLL_MS = 50;
const ABANDONED_MS = 60_000;
/** How long an answer is kept for retries. */
const KEEP_MS = 24 * 60 * 60 * 1000;
/** Headers a replay repeats. */
const REPLAYED_HEADERS = ['etag', 'location', 'content-type', 'retry-after'];

interface KeyRow {
  request_hash: string;
  status: number | null;
  headers: Record<string, string> | null;
  body: string | null;
  body_is_json: boolean;
  created_at: Date;
}

export function idempotencyKeyOf(ctx: Context): string | null {
  // Absent means no key; sent but empty is as malformed as any other bad key (a 400): a
  // client that meant to send one must not get an unprotected write instead.
  if (ctx.headers[IDEMPOTENCY_HEADER] === undefined) return null;
  const key = ctx.get(IDEMPOTENCY_HEADER);
  if (!KEY_PATTERN.test(key)) throw new ValidationError('Idempotency-Key must be 1 to 200 visible ASCII characters');
  return key;
}

function requestHash(ctx: Context): string {
  const body = (ctx.request as { body?: unknown }).body;
  return createHash('sha256')
    .update(`${ctx.method} ${ctx.path}\n`)
    .update(body === undefined ? '' : JSON.stringify(body))
    .digest('hex');
}

export class IdempotencyStore {
  private inserted = 0;

  constructor(private readonly knex: Knex) {}

  /** Runs `execute` once for (scope, key); a repeat answers as the first did. */
  async run(ctx: Context, scope: string, key: string, execute: () => Promise<void>): Promise<void> {
    const hash = requestHash(ctx);
    const deadline = Date.now() + WAIT_MS;
    for (;;) {
      if (await this.claim(scope, key, hash)) break;
      const row = (await this.knex('idempotency_keys').where({ scope, key }).first()) as KeyRow | undefined;
      if (!row) continue; // the first request failed and gave the key up: claim it again
      if (row.request_hash !== hash) {
        throw new AppError('unprocessable', 'This Idempotency-Key was already used for a different request');
      }
      if (row.status !== null) return replay(ctx, row);
      if (Date.now() - row.created_at.getTime() > ABANDONED_MS) {
        await this.knex('idempotency_keys').where({ scope, key, created_at: row.created_at }).whereNull('status').delete();
        continue;
      }
      if (Date.now() > deadline) {
        ctx.set('Retry-After', '1');
        throw new ConflictError('A request with this Idempotency-Key is still being processed. Try again in a moment.');
      }
      await sleep(POLL_MS);
    }

    let done = false;
    try {
      await execute();
      if (ctx.status >= 200 && ctx.status < 300) {
        await this.complete(ctx, scope, key);
        done = true;
      }
    } finally {
      if (!done) await this.knex('idempotency_keys').where({ scope, key }).whereNull('status').delete();
    }
  }

  private async claim(scope: string, key: string, hash: string): Promise<boolean> {
    const claimed = await this.knex('idempotency_keys')
      .insert({ scope, key, request_hash: hash })
      .onConflict(['scope', 'key'])
      .ignore()
      .returning('key');
    if (claimed.length === 0) return false;
    // Now and then, drop answers nobody will retry any more.
    if (++this.inserted % 500 === 0) {
      await this.knex('idempotency_keys')
        .where('created_at', '<', new Date(Date.now() - KEEP_MS))
        .delete()
        .catch(() => undefined);
    }
    return true;
  }

  private async complete(ctx: Context, scope: string, key: string): Promise<void> {
    const headers: Record<string, string> = {};
    for (const name of REPLAYED_HEADERS) {
      const value = ctx.response.get(name);
      if (value) headers[name] = String(value);
    }
    const body = ctx.body as unknown;
    const isJson = body !== null && body !== undefined && typeof body === 'object' && !Buffer.isBuffer(body);
    await this.knex('idempotency_keys')
      .where({ scope, key })
      .update({
        status: ctx.status,
        headers: JSON.stringify(headers),
        body: body === undefined || body === null ? null : isJson ? JSON.stringify(body) : String(body),
        body_is_json: isJson,
        completed_at: new Date(),
      });
  }
}

function replay(ctx: Context, row: KeyRow): void {
  for (const [name, value] of Object.entries(row.headers ?? {})) ctx.set(name, value);
  ctx.set('Idempotent-Replayed', 'true');
  ctx.status = row.status!;
  if (row.body !== null) ctx.body = row.body_is_json ? JSON.parse(row.body) : row.body;
  if (row.headers?.['content-type']) ctx.type = row.headers['content-type'];
}
