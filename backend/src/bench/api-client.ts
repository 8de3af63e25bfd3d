/**
 * The benchmark's set-up calls to the real API: the super admin creates the instances,
 * their admins sign in, and the load generator reuses those sessions' cookies.
 */
export class BenchApi {
  private readonly cookies = new Map<string, string>();

  constructor(readonly baseUrl: string) {}

  get cookie(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  async request<T>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
    const response = await fetch(this.baseUrl + path, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(method === 'GET' ? {} : { 'x-crm-request': '1' }),
        ...(this.cookies.size ? { cookie: this.cookie } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    for (const header of response.headers.getSetCookie()) {
      const [pair] = header.split(';');
      const at = pair!.indexOf('=');
      if (at > 0) this.cookies.set(pair!.slice(0, at).trim(), pair!.slice(at + 1));
    }
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // not JSON
    }
    return { status: response.status, body: parsed as T };
  }

  async expect<T>(status: number, method: string, path: string, body?: unknown): Promise<T> {
    const response = await this.request<T>(method, path, body);
    if (response.status !== status) {
      throw new Error(`${method} ${path} answered ${response.status}, not ${status}: ${JSON.stringify(response.body).slice(0, 300)}`);
    }
    return response.body;
  }
}

export interface BenchInstance {
  id: string;
  subdomain: string;
  /** Cookie of the instance admin's session. */
  cookie: string;
}

export const BENCH_PIN = '1234';

/** Creates an instance through the super admin's API and signs its first admin in. */
export async function createInstance(superAdmin: BenchApi, subdomain: string): Promise<BenchInstance> {
  const created = await superAdmin.expect<{ id: string; subdomain: string }>(201, 'POST', '/api/crm-instances', {
    name: subdomain.toUpperCase(),
    displayName: `${subdomain} Auto Service`,
    subdomain,
    // Every screen the bench measures, the calendar too (off by default).
    features: { pipeline: true, customers: true, calendar: true, admin: true },
    adminUsername: 'owner',
    adminDisplayName: 'Olivia Owner',
    adminPin: BENCH_PIN,
  });
  const admin = new BenchApi(superAdmin.baseUrl);
  await admin.expect(200, 'POST', '/api/auth/login', { username: 'owner', pin: BENCH_PIN, instance: subdomain });
  return { id: created.id, subdomain: created.subdomain, cookie: admin.cookie };
}
