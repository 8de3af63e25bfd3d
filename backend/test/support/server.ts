import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { DestinationStream } from 'pino';
import { createTestDatabase } from '@crm/projections/testing/database';
// Brings the run's provided values (pgAdminUrl) into this program's types.
import type {} from '@crm/projections/testing/global-setup';
import { loadConfig } from '../../src/config.ts';
import { catchUpAsyncReadModels } from '../../src/deps.ts';
import { createLogger } from '../../src/logger.ts';
import { FRONTEND_DIST, startRuntime, type Runtime } from '../../src/runtime.ts';

export const SUPER_ADMIN = { username: 'superadmin', password: 'correct-horse-battery' };

export interface TestServer {
  url: string;
  runtime: Runtime;
  /**
   * Waits until the projector has passed every event committed so far: for a test that
   * reads an asynchronous read model (activity, insights) straight from the database.
   * (Commands answer once their own rows are written, not when the projector gets there.)
   */
  caughtUp(): Promise<void>;
  stop(): Promise<void>;
}

export interface TestServerOptions {
  /** The commands' clock; pass a mutable one to move time (throttling). */
  now?: () => Date;
  /** Receives every log line (as JSON) instead of stdout. */
  logDestination?: DestinationStream;
}

/** The real server (API, projector, frontend when built) on a fresh database. */
export async function startTestServer(env: Record<string, string> = {}, options: TestServerOptions = {}): Promise<TestServer> {
  const db = await createTestDatabase();
  const config = loadConfig({
    DATABASE_URL: db.url,
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'crm-test-')),
    SUPER_ADMIN_USERNAME: SUPER_ADMIN.username,
    SUPER_ADMIN_PASSWORD: SUPER_ADMIN.password,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    // Test files sign in far more often than a person could; the limiter has tests of its own.
    SIGN_IN_RATE_LIMIT: '10000',
    // `npm run test:eventstore`: the events in EventStoreDB, each server in streams of its own.
    ...(process.env.TEST_EVENTSTORE_URL
      ? { EVENTSTORE_URL: process.env.TEST_EVENTSTORE_URL, EVENTSTORE_STREAM_PREFIX: `t${randomBytes(5).toString('hex')}-` }
      : {}),
    ...env,
  });
  const runtime = await startRuntime(config, createLogger(config.LOG_LEVEL, options.logDestination), {
    version: '1.0.0-test',
    frontendDir: FRONTEND_DIST,
    now: options.now,
  });
  return {
    url: runtime.url,
    runtime,
    async caughtUp() {
      await catchUpAsyncReadModels(runtime.deps);
    },
    async stop() {
      await runtime.stop();
      await db.drop();
    },
  };
}

/**
 * A second API process beside the test server, as a load balancer puts one when the app is
 * scaled out: the same database and session secret (a session made on either serves on both),
 * and no projector of its own.
 */
export async function startSecondApiProcess(server: TestServer): Promise<Runtime> {
  const { config } = server.runtime.deps;
  return await startRuntime(
    loadConfig({
      DATABASE_URL: config.DATABASE_URL!,
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: mkdtempSync(path.join(tmpdir(), 'crm-test-')),
      SESSION_SECRET: config.sessionSecret,
      SUPER_ADMIN_USERNAME: SUPER_ADMIN.username,
      SUPER_ADMIN_PASSWORD: SUPER_ADMIN.password,
      RUN_PROJECTOR: 'false',
      LOG_LEVEL: 'silent',
      SIGN_IN_RATE_LIMIT: '10000',
    }),
    createLogger('silent'),
    { version: '1.0.0-test' },
  );
}

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

/** A browser-like API client: keeps cookies, sends the cross-site guard header. */
export class ApiClient {
  /** Sees every response any client gets (a test file may scan them all for secrets). */
  static observer: ((response: ApiResponse, method: string, urlPath: string) => void) | null = null;

  private cookies = new Map<string, string>();

  constructor(readonly baseUrl: string) {}

  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async request<T = any>(method: string, urlPath: string, body?: unknown, headers: Record<string, string> = {}): Promise<ApiResponse<T>> {
    const init: RequestInit = {
      method,
      headers: {
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(method === 'GET' ? {} : { 'x-crm-request': '1' }),
        ...(this.cookies.size ? { cookie: this.cookieHeader() } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    };
    const response = await fetch(this.baseUrl + urlPath, init);
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const [name, ...rest] = pair!.split('=');
      const value = rest.join('=');
      if (/expires=Thu, 01 Jan 1970/i.test(cookie) || value === '') this.cookies.delete(name!.trim());
      else this.cookies.set(name!.trim(), value);
    }
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // not JSON: keep the text
    }
    const result: ApiResponse<T> = { status: response.status, headers: response.headers, body: parsed as T, text };
    ApiClient.observer?.(result, method, urlPath);
    return result;
  }

  get<T = any>(p: string, headers?: Record<string, string>) {
    return this.request<T>('GET', p, undefined, headers);
  }
  post<T = any>(p: string, body?: unknown, headers?: Record<string, string>) {
    return this.request<T>('POST', p, body ?? {}, headers);
  }
  put<T = any>(p: string, body?: unknown, headers?: Record<string, string>) {
    return this.request<T>('PUT', p, body ?? {}, headers);
  }
  patch<T = any>(p: string, body?: unknown, headers?: Record<string, string>) {
    return this.request<T>('PATCH', p, body ?? {}, headers);
  }
  delete<T = any>(p: string, headers?: Record<string, string>) {
    return this.request<T>('DELETE', p, undefined, headers);
  }
}

export async function signInSuperAdmin(server: TestServer): Promise<ApiClient> {
  const client = new ApiClient(server.url);
  const res = await client.post('/api/super-admin/login', SUPER_ADMIN);
  if (res.status !== 200) throw new Error(`super admin sign-in failed: ${res.status} ${res.text}`);
  return client;
}

export interface TestInstance {
  id: string;
  subdomain: string;
  /** The first admin, created with the instance. */
  admin: { username: string; pin: string };
}

/** A new instance (through the super admin's API) with its first admin. */
export async function createTestInstance(
  server: TestServer,
  subdomain: string,
  admin = { username: 'owner', pin: '1234' },
): Promise<TestInstance> {
  const superAdmin = await signInSuperAdmin(server);
  const res = await superAdmin.post('/api/crm-instances', {
    name: subdomain.toUpperCase(),
    displayName: `${subdomain} Auto`,
    subdomain,
    adminUsername: admin.username,
    adminDisplayName: 'Owner',
    adminPin: admin.pin,
  });
  if (res.status !== 201) throw new Error(`instance creation failed: ${res.status} ${res.text}`);
  return { id: res.body.id, subdomain: res.body.subdomain, admin };
}

/** A client signed in to an instance as the given user. */
export async function signInUser(server: TestServer, instance: string, username: string, pin: string): Promise<ApiClient> {
  const client = new ApiClient(server.url);
  const res = await client.post('/api/auth/login', { username, pin, instance });
  if (res.status !== 200) throw new Error(`sign-in of ${username}@${instance} failed: ${res.status} ${res.text}`);
  return client;
}
