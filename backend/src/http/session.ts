import { randomUUID } from 'node:crypto';
import type Koa from 'koa';
import type { Context, Next } from 'koa';

/** Where a session is kept between requests (session-store.ts: PostgreSQL, with the process's cache). */
export interface SessionStore {
  get(key: string, maxAge: number, options: { ctx: Context }): Promise<Record<string, unknown> | undefined>;
  set(key: string, data: Record<string, unknown>, maxAge: number): Promise<void>;
  destroy(key: string): Promise<void>;
}

export interface SessionOptions {
  /** The cookie's name; it holds the session's key, signed (`<name>.sig`). */
  key: string;
  store: SessionStore;
  /** How long a session lives from its last save when it does not say otherwise (ms). */
  maxAge: number;
  sameSite: 'lax' | 'strict';
}

/** How much longer the stored row lives than the cookie, so the row never goes first. */
const STORE_GRACE_MS = 10_000;
const EXPIRED = new Date(0);

/**
 * A request's session: its data as own fields (what SessionData names), and what the session
 * middleware reads back at the end of the request. Fields starting with `_` are the
 * middleware's own and are not session data.
 */
export class Session {
  /** When the stored session expires (ms since the epoch); set when it was loaded or saved. */
  _expire?: number;
  /** Save at the end of the request even when no data changed (a touch, a new idle window). */
  _requireSave = false;
  readonly #request: RequestSession;

  constructor(request: RequestSession, data?: Record<string, unknown>) {
    this.#request = request;
    if (data) for (const name in data) if (name !== '_maxAge') (this as Record<string, unknown>)[name] = data[name];
  }

  /** How long this session lives from its next save (ms); setting it saves the session. */
  get maxAge(): number {
    return this.#request.maxAge;
  }
  set maxAge(value: number) {
    this.#request.maxAge = value;
    this._requireSave = true;
  }

  /** A new key for the session (its old row deleted, its data saved under the new key now). */
  async regenerate(): Promise<void> {
    await this.#request.regenerate();
  }
}

/** The session's data: its own fields but the middleware's (`_…`). */
function dataOf(session: Session): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  for (const name of Object.keys(session)) if (name[0] !== '_') data[name] = (session as unknown as Record<string, unknown>)[name];
  return data;
}

/** Whether the session's data is what was loaded (no JSON, no hash: a session holds a few ids). */
function unchanged(session: Session, loaded: Record<string, unknown> | null): boolean {
  let count = 0;
  for (const name of Object.keys(session)) {
    if (name[0] === '_') continue;
    count++;
    const value = (session as unknown as Record<string, unknown>)[name];
    if (loaded === null || !(name in loaded)) return false;
    const before = loaded[name];
    if (value === before) continue;
    // A nested value (no session of ours holds one) is compared by its JSON.
    if (typeof value !== 'object' || value === null || JSON.stringify(value) !== JSON.stringify(before)) return false;
  }
  if (loaded === null) return count === 0;
  let loadedCount = 0;
  for (const name of Object.keys(loaded)) if (name[0] !== '_') loadedCount++;
  return count === loadedCount;
}

/** One request's session state: what the middleware loaded, and what the request made of it. */
class RequestSession {
  /** The session's key: the cookie's when it named a stored session, else one made at its first save. */
  key: string | undefined;
  /** undefined: not looked at yet (an empty one is made on first use); false: ended (`ctx.session = null`). */
  session: Session | false | undefined;
  /** The stored data as loaded, to tell whether the request changed it; null when none was. */
  loaded: Record<string, unknown> | null = null;
  maxAge: number;

  constructor(
    private readonly ctx: Context,
    private readonly options: SessionOptions,
  ) {
    this.maxAge = options.maxAge;
  }

  load(key: string, data: Record<string, unknown>): void {
    this.key = key;
    this.loaded = data;
    if (typeof data._maxAge === 'number') this.maxAge = data._maxAge;
    this.session = new Session(this, data);
  }

  get(): Session | null {
    if (this.session === false) return null;
    this.session ??= new Session(this);
    return this.session;
  }

  set(value: unknown): void {
    if (value === null) this.session = false;
    else if (typeof value === 'object') this.session = new Session(this, value as Record<string, unknown>);
    else throw new Error('ctx.session can only be set to null or an object');
  }

  async regenerate(): Promise<void> {
    await this.remove();
    this.key = randomUUID();
    if (this.session === false || this.session === undefined) this.session = new Session(this);
    await this.save(this.session);
  }

  /** At the end of the request: the ended session removed, a changed or touched one saved, else nothing. */
  async commit(): Promise<void> {
    const session = this.session;
    if (session === undefined) return;
    if (session === false) {
      await this.remove();
      return;
    }
    if (!session._requireSave && unchanged(session, this.loaded)) return;
    await this.save(session);
  }

  private cookieOptions() {
    return { maxAge: this.maxAge, httpOnly: true, sameSite: this.options.sameSite, signed: true, overwrite: true } as const;
  }

  private async remove(): Promise<void> {
    if (this.key !== undefined) await this.options.store.destroy(this.key);
    this.ctx.cookies.set(this.options.key, '', { ...this.cookieOptions(), maxAge: undefined, expires: EXPIRED });
  }

  private async save(session: Session): Promise<void> {
    this.key ??= randomUUID();
    const expire = Date.now() + this.maxAge;
    await this.options.store.set(this.key, { ...dataOf(session), _expire: expire, _maxAge: this.maxAge }, this.maxAge + STORE_GRACE_MS);
    session._expire = expire;
    session._requireSave = false;
    this.loaded = dataOf(session);
    this.ctx.cookies.set(this.options.key, this.key, this.cookieOptions());
  }
}

declare module 'koa' {
  interface ExtendableContext {
    /** The request's session (an empty one until something is put in it); null once ended. */
    session: Session | null;
  }
}

const REQUEST_SESSION = Symbol('crm.requestSession');

type SessionContext = Context & { [REQUEST_SESSION]?: RequestSession };

/**
 * Sessions kept in a store under a signed cookie's key: the cookie and the stored data are
 * those koa-session (which kept them before) wrote, so a browser stays signed in across the
 * upgrade, and `ctx.session` is used as it was. Less work per request than koa-session's:
 * the cookie is read and its signature checked once (the signer remembers it), the stored
 * session comes from the process's cache, and the end of the request compares the session's
 * few fields with what was loaded instead of hashing its JSON twice. Nothing is written and no
 * cookie is sent unless the request changed the session, ended it or asked for a save
 * (touchIdleSession).
 */
export function sessionMiddleware(app: Koa, options: SessionOptions) {
  Object.defineProperty(app.context, 'session', {
    get(this: SessionContext) {
      return this[REQUEST_SESSION]?.get() ?? null;
    },
    set(this: SessionContext, value: unknown) {
      const request = this[REQUEST_SESSION];
      if (!request) throw new Error('ctx.session is set outside the session middleware');
      request.set(value);
    },
    configurable: true,
  });
  return async function session(ctx: Context, next: Next): Promise<void> {
    const request = new RequestSession(ctx, options);
    (ctx as SessionContext)[REQUEST_SESSION] = request;
    const key = ctx.cookies.get(options.key, { signed: true });
    if (key) {
      const data = await options.store.get(key, options.maxAge, { ctx });
      // The store answers only sessions it still holds; an expiry in the data is checked too.
      if (data && !(typeof data._expire === 'number' && data._expire < Date.now())) request.load(key, data);
    }
    try {
      await next();
    } finally {
      await request.commit();
    }
  };
}
