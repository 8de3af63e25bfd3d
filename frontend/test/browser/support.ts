import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, onTestFinished } from 'vitest';
import {
  type ApiClient,
  signInSuperAdmin,
  signInUser,
  startTestServer,
  type TestInstance,
  type TestServer,
} from '../../../backend/test/support/server.ts';

export const CHROME_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium';

/**
 * How long a step known to be slow may take: PIN hashing (scrypt) on sign-in, user creation and PIN
 * changes, and projections catching up. Plain page steps use vitest.config.ts's 10 s poll timeout.
 */
export const SLOW = 30_000;
/** A browser test's own time limit: seeding, a few screens and a loaded two-core machine. */
export const TEST_TIMEOUT = 120_000;
/** beforeAll: a server on a fresh database and Chromium, side by side. */
export const SETUP_TIMEOUT = 120_000;

/**
 * One server (on a fresh database) and one Chromium for a test file, started before its
 * tests (side by side) and stopped after them; `use` receives both. Every test still makes
 * its own instance, records and browser context.
 */
export function serverAndBrowserForFile(use: (server: TestServer, browser: Browser) => void): void {
  let started: [TestServer, Browser] | null = null;
  beforeAll(async () => {
    started = await Promise.all([startTestServer(), launchBrowser()]);
    use(...started);
  }, SETUP_TIMEOUT);
  afterAll(async () => {
    await started?.[1].close();
    await started?.[0].stop();
  });
}

/** Debian's Chromium, headless, with the flags this closed network needs. */
export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROME_PATH)) {
    throw new Error(`Chromium not found at ${CHROME_PATH}: install Debian's chromium package or set CHROME_PATH`);
  }
  return await chromium.launch({
    executablePath: CHROME_PATH,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export interface PageOptions {
  baseURL: string;
  phone?: boolean;
  colorScheme?: 'light' | 'dark';
  /** The browser's own time zone (IANA), e.g. far from the shop's. */
  timezoneId?: string;
}

let pagesOpened = 0;

/**
 * A fresh browser context (its own cookies) and page, for the current test only: it is closed when
 * the test ends, and if the test failed its screen is saved first as `failure-<test>-<n>.png` (and
 * the API calls it saw refused are printed).
 * Auto-waiting actions wait up to 20 s: a busy machine renders slowly.
 */
export async function newPage(browser: Browser, options: PageOptions): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    baseURL: options.baseURL,
    viewport: options.phone ? { width: 375, height: 812 } : { width: 1280, height: 860 },
    colorScheme: options.colorScheme ?? 'light',
    ...(options.timezoneId ? { timezoneId: options.timezoneId } : {}),
  });
  await context.addInitScript(recordToasts);
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  page.setDefaultNavigationTimeout(30_000);
  const nth = ++pagesOpened;
  // The API calls the page saw refused, printed if the test fails (many are expected: a wrong PIN is a 401).
  const refused: string[] = [];
  page.on('response', (response) => {
    const url = new URL(response.url());
    if (url.pathname.startsWith('/api/') && response.status() >= 400) {
      refused.push(`${response.request().method()} ${url.pathname} → ${response.status()}`);
    }
  });
  onTestFinished(async ({ task }) => {
    if (task.result?.state === 'fail') {
      const name = `failure-${task.name.replace(/[^a-z0-9]+/gi, '-').slice(0, 80)}-${nth}`;
      await snap(page, name).catch(() => {});
      if (refused.length) console.log(`${name}: API calls refused on this page:\n  ${refused.join('\n  ')}`);
      const toasts = await toastTexts(page).catch(() => '');
      if (toasts) console.log(`${name}: toasts this page showed:\n  ${toasts.replaceAll('\n', '\n  ')}`);
    }
    await context.close().catch(() => {});
  });
  return { context, page };
}

/**
 * Gives a browser context the session of an API client (signed in through the API): the sign-in
 * screens have tests of their own, the others start signed in.
 */
export async function shareSession(context: BrowserContext, client: ApiClient): Promise<void> {
  const cookies = client
    .cookieHeader()
    .split('; ')
    .filter(Boolean)
    .map((pair) => {
      const at = pair.indexOf('=');
      return { name: pair.slice(0, at), value: pair.slice(at + 1), url: client.baseUrl };
    });
  if (cookies.length === 0) throw new Error('the API client has no session to share');
  await context.addCookies(cookies);
}

/** A page signed in with the API client's session. */
export async function signedInPage(browser: Browser, client: ApiClient, options: Omit<PageOptions, 'baseURL'> = {}) {
  const opened = await newPage(browser, { baseURL: client.baseUrl, ...options });
  await shareSession(opened.context, client);
  return opened;
}

/**
 * A server of the test's own, stopped when the test ends (after its pages close): for the tests that
 * need the provider's instance (maven) as a new server has it, with no users or records yet, or a
 * server configured otherwise (`env`, e.g. an SMTP server of the test's).
 */
export async function ownServer(env: Record<string, string> = {}): Promise<TestServer> {
  const server = await startTestServer(env);
  onTestFinished(() => server.stop());
  return server;
}

/** A name no other test uses: lowercase letters and digits, fit for a subdomain or a username. */
export function unique(prefix: string): string {
  return `${prefix}${randomBytes(3).toString('hex')}`;
}

export interface Shop {
  instance: TestInstance;
  subdomain: string;
  /** The first admin (display name "Owner"), signed in through the API. */
  owner: ApiClient;
}

/**
 * POSTs a new instance or user, which the server answers by reading it back from its read model.
 * It waits at most 2 s for the projector (`settle`) and then answers 404 for what it did record:
 * on a busy machine the projector can be later than that. Then the new record is looked for with
 * `find` (a list read from the same read model) until it shows; any other refusal is an error.
 */
async function postReadBack(client: ApiClient, urlPath: string, body: unknown, find: () => Promise<any>): Promise<any> {
  const res = await client.post(urlPath, body);
  if (res.status === 201) return res.body;
  if (res.status !== 404) throw new Error(`POST ${urlPath} failed: ${res.status} ${res.text}`);
  const deadline = Date.now() + SLOW;
  for (;;) {
    const found = await find();
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`POST ${urlPath} answered 404 and nothing new showed in ${SLOW} ms: ${res.text}`);
    await sleep(200);
  }
}

/**
 * A new instance with its first admin (display name "Owner"), as the super admin makes it: what
 * createTestInstance does, but patient with a projector that is more than 2 s behind.
 */
export async function createInstance(
  server: TestServer,
  subdomain: string,
  admin = { username: 'owner', pin: '1234' },
  options: { timeZone?: string; features?: Record<string, boolean> } = {},
): Promise<TestInstance> {
  const superAdmin = await signInSuperAdmin(server);
  const view = await postReadBack(
    superAdmin,
    '/api/crm-instances',
    {
      name: subdomain.toUpperCase(),
      displayName: `${subdomain} Auto`,
      subdomain,
      adminUsername: admin.username,
      adminDisplayName: 'Owner',
      adminPin: admin.pin,
      ...(options.timeZone ? { timeZone: options.timeZone } : {}),
      ...(options.features ? { features: options.features } : {}),
    },
    async () => (await superAdmin.get('/api/crm-instances')).body.find((i: { subdomain: string }) => i.subdomain === subdomain),
  );
  return { id: view.id, subdomain: view.subdomain, admin };
}

/** A new instance of its own for one test, and its first admin signed in through the API. */
export async function createShop(
  server: TestServer,
  prefix: string,
  admin = { username: 'owner', pin: '1234' },
  options: { timeZone?: string; features?: Record<string, boolean> } = {},
): Promise<Shop> {
  const instance = await createInstance(server, unique(prefix), admin, options);
  const owner = await signInUser(server, instance.subdomain, admin.username, admin.pin);
  return { instance, subdomain: instance.subdomain, owner };
}

/** Adds a user through an admin's API session; returns its id. */
export async function addUser(
  admin: ApiClient,
  user: { username: string; displayName?: string; pin: string; role?: 'user' | 'admin' },
): Promise<string> {
  const view = await postReadBack(admin, '/api/admin/users', { role: 'user', ...user }, async () =>
    (await admin.get('/api/admin/users')).body.find((u: { username: string }) => u.username === user.username),
  );
  return view.id;
}

/** Adds a user to the provider's own instance (maven) as the super admin; returns the instance's id. */
export async function addMavenUser(server: TestServer, user: { username: string; displayName?: string; pin: string }): Promise<string> {
  const superAdmin = await signInSuperAdmin(server);
  const maven = (await superAdmin.get('/api/crm-instances')).body.find((i: { subdomain: string }) => i.subdomain === 'maven');
  const usersPath = `/api/crm-instances/${maven.id}/users`;
  await postReadBack(superAdmin, usersPath, { role: 'admin', ...user }, async () =>
    (await superAdmin.get(usersPath)).body.find((u: { username: string }) => u.username === user.username),
  );
  return maven.id;
}

/** POSTs every body to `urlPath`, a few at a time (one by one, each waits on its projection); returns the created bodies. */
export async function postAll(client: ApiClient, urlPath: string, bodies: unknown[], concurrency = 8): Promise<any[]> {
  const results: any[] = new Array(bodies.length);
  let next = 0;
  const worker = async () => {
    while (next < bodies.length) {
      const index = next++;
      const res = await client.post(urlPath, bodies[index]);
      if (res.status !== 201) throw new Error(`POST ${urlPath} failed: ${res.status} ${res.text}`);
      results[index] = res.body;
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, bodies.length) }, worker));
  return results;
}

/** POSTs one body and returns what was created. */
export async function postOne(client: ApiClient, urlPath: string, body: unknown): Promise<any> {
  const res = await client.post(urlPath, body);
  if (res.status !== 201) throw new Error(`POST ${urlPath} failed: ${res.status} ${res.text}`);
  return res.body;
}

/** Screenshots land in ./screenshots (not committed) for people to look at. */
export async function snap(page: Page, name: string): Promise<void> {
  const dir = path.resolve('screenshots');
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: true });
}

/** Like snap(), but only what is on screen: a dialog over a long list. */
export async function snapViewport(page: Page, name: string): Promise<void> {
  const dir = path.resolve('screenshots');
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${name}.png`) });
}

/**
 * Runs in every page (an init script, before the app's own code): keeps the text of every toast
 * the page shows, as it shows it. A toast closes by itself after five seconds, and on a busy
 * machine a poll of the screen can miss that window; the record cannot.
 */
function recordToasts(): void {
  const seen: string[] = [];
  (window as unknown as { __toastsSeen: string[] }).__toastsSeen = seen;
  const record = () => {
    for (const toast of document.querySelectorAll<HTMLElement>('[role="region"][aria-label^="Notifications"] li')) {
      const text = toast.innerText.trim();
      if (text && !seen.includes(text)) seen.push(text);
    }
  };
  new MutationObserver(record).observe(document, { childList: true, subtree: true, characterData: true });
}

/**
 * The text of every toast this page has shown since it loaded, one per line, whether or not it
 * is still on screen. Polled with toContain, a failure prints what the toasts did say (an error,
 * or nothing yet) instead of only "0 matches".
 */
export function toastTexts(page: Page): Promise<string> {
  return page.evaluate(() => ((window as unknown as { __toastsSeen?: string[] }).__toastsSeen ?? []).join('\n'));
}
