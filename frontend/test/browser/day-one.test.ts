import { randomBytes } from 'node:crypto';
import type { Browser, BrowserContext, ConsoleMessage, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, onTestFinished, test } from 'vitest';
import {
  type ApiClient,
  signInSuperAdmin,
  signInUser,
  startTestServer,
  SUPER_ADMIN,
  type TestServer,
} from '../../../backend/test/support/server.ts';
import { launchBrowser, snap } from './support.ts';

/*
 * Day one of a new shop, as found by trying the product: staff are never sent to the provider's
 * pages, the builder shows addresses that work, an instance without the Admin feature can still
 * add staff, read-only users see no dead buttons, and the console stays clean in normal use.
 * Each test seeds its own instance through the API.
 */

const SLOW = 30_000;
const TEST_TIMEOUT = 120_000;

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const unique = (prefix: string) => `${prefix}${randomBytes(3).toString('hex')}`;
const eventually = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: SLOW });
const pathOf = (page: Page) => {
  const url = new URL(page.url());
  return url.pathname + url.search;
};

interface PageOptions {
  phone?: boolean;
  dark?: boolean;
  /** An API client whose session the page starts with. */
  as?: ApiClient;
}

/** A browser context of the test's own (closed when it ends), optionally signed in as an API client. */
async function openPage(options: PageOptions = {}): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    baseURL: server.url,
    viewport: options.phone ? { width: 375, height: 812 } : { width: 1280, height: 860 },
    colorScheme: options.dark ? 'dark' : 'light',
  });
  onTestFinished(() => context.close().catch(() => {}));
  if (options.as) {
    const cookies = options.as
      .cookieHeader()
      .split('; ')
      .filter(Boolean)
      .map((pair) => ({ name: pair.slice(0, pair.indexOf('=')), value: pair.slice(pair.indexOf('=') + 1), url: server.url }));
    await context.addCookies(cookies);
  }
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  return { context, page };
}

interface Shop {
  subdomain: string;
  owner: ApiClient;
}

/** A new instance with its first admin (owner, PIN 1234) signed in through the API. */
async function createShop(prefix: string, features: Record<string, boolean> = {}): Promise<Shop> {
  const subdomain = unique(prefix);
  const provider = await signInSuperAdmin(server);
  const res = await provider.post('/api/crm-instances', {
    name: subdomain.toUpperCase(),
    displayName: `${subdomain} Auto`,
    subdomain,
    features,
    adminUsername: 'owner',
    adminDisplayName: 'Owner',
    adminPin: '1234',
  });
  if (res.status !== 201) throw new Error(`instance creation failed: ${res.status} ${res.text}`);
  return { subdomain, owner: await signInUser(server, subdomain, 'owner', '1234') };
}

/** Adds a staff member through the owner's API session; `readOnly` takes away write and delete. */
async function addStaff(shop: Shop, username: string, { readOnly = false } = {}): Promise<ApiClient> {
  const added = await shop.owner.post('/api/admin/users', { username, pin: '5678', role: 'user' });
  if (added.status !== 201) throw new Error(`adding ${username} failed: ${added.status} ${added.text}`);
  if (readOnly) {
    const changed = await shop.owner.patch(`/api/admin/users/${added.body.id}/permissions`, { canWrite: false, canDelete: false });
    if (changed.status !== 200) throw new Error(`read-only ${username} failed: ${changed.status} ${changed.text}`);
  }
  return signInUser(server, shop.subdomain, username, '5678');
}

const VARIANTS = [
  { suffix: 'desktop-light', phone: false, dark: false },
  { suffix: 'desktop-dark', phone: false, dark: true },
  { suffix: 'phone-light', phone: true, dark: false },
  { suffix: 'phone-dark', phone: true, dark: true },
] as const;

describe('staff are never sent to the provider pages', () => {
  test(
    'the staff login offers "Need an account?", whose page leads back to that sign-in',
    async () => {
      const shop = await createShop('backhome');
      const { page } = await openPage();
      await page.goto(`/crm/${shop.subdomain}`);
      await eventually(() => page.getByRole('heading', { name: `${shop.subdomain.toUpperCase()} CRM Login` }).count()).toBe(1);
      await expect.poll(() => page.getByRole('link', { name: 'Back to Home' }).count()).toBe(0);
      const needAccount = page.getByRole('link', { name: 'Need an account?' });
      await expect.poll(() => needAccount.getAttribute('href')).toBe(`/register?instance=${shop.subdomain}`);
      // The header's Register names the instance too.
      await expect
        .poll(() => page.getByRole('link', { name: 'Register' }).getAttribute('href'))
        .toBe(`/register?instance=${shop.subdomain}`);
      await needAccount.click();
      await eventually(() => page.getByRole('heading', { name: 'Need an account?' }).count()).toBe(1);
      // The help names the link staff really see in the navigation.
      await expect.poll(() => page.getByText("add you under Admin (Users when the CRM's Admin feature is off)").count()).toBe(1);
      await expect.poll(() => page.getByRole('link', { name: 'Back to Home' }).count()).toBe(0);
      await page.getByRole('link', { name: 'Back to Sign In' }).click();
      await eventually(() => pathOf(page)).toBe(`/crm/${shop.subdomain}`);
      await eventually(() => page.getByRole('heading', { name: `${shop.subdomain.toUpperCase()} CRM Login` }).count()).toBe(1);

      // The provider instance's login leads to /register?instance=maven, and back to /maven.
      await page.goto('/maven');
      await page.getByRole('link', { name: 'Need an account?' }).click();
      await page.getByRole('link', { name: 'Back to Sign In' }).click();
      await eventually(() => pathOf(page)).toBe('/maven');
    },
    TEST_TIMEOUT,
  );

  test(
    'a signed-in staff member visiting /crm, /login or /register stays in their CRM; the super admin keeps /',
    async () => {
      const shop = await createShop('signedin');
      const { page } = await openPage({ as: shop.owner });
      const dashboard = `/crm/${shop.subdomain}/dashboard`;
      const greeting = page.getByRole('heading', { level: 1, name: /^Good (morning|afternoon|evening), Owner$/ });
      await page.goto('/crm');
      await eventually(() => pathOf(page)).toBe(dashboard);
      await eventually(() => greeting.count()).toBe(1);
      await page.goto('/login');
      await eventually(() => pathOf(page)).toBe(dashboard);
      await page.goto('/register');
      await eventually(() => page.getByRole('heading', { name: 'Need an account?' }).count()).toBe(1);
      await page.getByRole('link', { name: 'Back to Dashboard' }).click();
      await eventually(() => pathOf(page)).toBe(dashboard);
      await eventually(() => greeting.count()).toBe(1);

      // The super admin: /register leads to the provider's home, /crm to it too.
      const { page: provider } = await openPage({ as: await signInSuperAdmin(server) });
      await provider.goto('/register');
      await provider.getByRole('link', { name: 'Back to Home' }).click();
      await eventually(() => pathOf(provider)).toBe('/');
      await eventually(() => provider.getByRole('heading', { name: /^Welcome/ }).count()).toBe(1);
      await provider.goto('/crm');
      await eventually(() => pathOf(provider)).toBe('/');
    },
    TEST_TIMEOUT,
  );
});

describe('the CRM builder and the selection page', () => {
  test(
    'the builder and the dialog show the addresses that work, and promise no later changes',
    async () => {
      const suffix = unique('');
      const { page } = await openPage({ as: await signInSuperAdmin(server) });
      await page.goto('/crm-builder');
      await page.getByLabel('Business Name').fill(`Rita's Rides ${suffix}`);
      const subdomain = `ritasrides${suffix}`;
      await eventually(() => page.getByTestId('subdomain-preview').innerText()).toBe(`${server.url}/${subdomain}`);
      await expect.poll(() => page.getByText(`${server.url}/crm/${subdomain}`, { exact: true }).count()).toBe(1);
      await expect.poll(() => page.getByText(/change this later/).count()).toBe(0);
      await expect.poll(() => page.getByText(new RegExp(`${subdomain}\\.`)).count()).toBe(0);
      await page.getByLabel('Admin Username').fill('rita');
      await page.getByLabel('Admin PIN').fill('1111');
      await page.getByRole('button', { name: 'Create CRM' }).click();
      await page.waitForURL('**/crm-selection');

      // The dialog shows where the new shop's staff sign in, from the name typed.
      await page.getByRole('button', { name: 'Create New CRM Instance' }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel('Name', { exact: true }).fill(`Joe's Garage ${suffix}`);
      await eventually(() => dialog.getByTestId('create-instance-address').innerText()).toBe(`${server.url}/joesgarage${suffix}`);
      await expect.poll(() => dialog.getByText(`${server.url}/crm/joesgarage${suffix}`, { exact: true }).count()).toBe(1);
      await expect.poll(() => dialog.getByText(/change this later/).count()).toBe(0);
      await dialog.getByRole('button', { name: 'Cancel' }).click();

      // Both addresses shown lead to the new instance's sign-in.
      for (const address of [`${server.url}/${subdomain}`, `${server.url}/crm/${subdomain}`]) {
        const { page: visitor } = await openPage();
        await visitor.goto(address);
        await eventually(() => visitor.getByRole('heading', { name: `${subdomain.toUpperCase()} CRM Login` }).count()).toBe(1);
        await expect.poll(() => pathOf(visitor)).toBe(`/crm/${subdomain}`);
      }
    },
    TEST_TIMEOUT,
  );

  test(
    'the CRM Template card starts a new CRM in the builder; every shop card has an Open button to its login',
    async () => {
      const shop = await createShop('opencard');
      const { page } = await openPage({ as: await signInSuperAdmin(server) });
      await page.goto('/crm-selection');
      const list = page.getByRole('region', { name: 'CRM instances' });
      const card = list.getByRole('listitem').filter({ hasText: `${shop.subdomain} Auto` });
      const open = card.getByRole('link', { name: `Open ${shop.subdomain} Auto` });
      await eventually(() => open.getAttribute('href')).toBe(`/crm/${shop.subdomain}`);
      const template = page.getByRole('link', { name: 'CRM Template' });
      await expect.poll(() => template.getAttribute('href')).toBe('/crm-builder');
      await template.click();
      await eventually(() => pathOf(page)).toBe('/crm-builder');
      await eventually(() => page.getByRole('heading', { name: 'Create CRM' }).count()).toBe(1);
      await page.goBack();
      await card.getByRole('link', { name: `Open ${shop.subdomain} Auto` }).click();
      await eventually(() => pathOf(page)).toBe(`/crm/${shop.subdomain}`);
      await eventually(() => page.getByRole('heading', { name: `${shop.subdomain.toUpperCase()} CRM Login` }).count()).toBe(1);
    },
    TEST_TIMEOUT,
  );
});

describe('what a shop can do on day one', () => {
  test(
    'with the Admin feature off, the admin still adds staff under Users; the dashboard tips only what is on',
    async () => {
      const shop = await createShop('noadmin', { pipeline: true, customers: true, calendar: false, admin: false });
      const { page } = await openPage({ as: shop.owner });
      await page.goto(`/crm/${shop.subdomain}/dashboard`);
      const tips = page.getByRole('list', { name: 'Getting Started' });
      await eventually(() => tips.locator('li > span:first-child').allInnerTexts()).toEqual(['Pipeline', 'Customers', 'Users']);
      await expect.poll(() => page.getByRole('heading', { name: 'User Management' }).count()).toBe(1);
      const nav = page.getByRole('navigation', { name: 'Main' });
      await expect
        .poll(() => nav.getByRole('link').allInnerTexts())
        .toEqual(['Pipeline', 'Customers', 'Service Requests', 'Insights', 'Takings', 'Shop', 'Messages', 'Users']);
      await nav.getByRole('link', { name: 'Users' }).click();
      await eventually(() => pathOf(page)).toBe(`/crm/${shop.subdomain}/admin`);
      await eventually(() => page.getByRole('heading', { level: 1, name: 'Users' }).count()).toBe(1);
      // The Admin Dashboard's extras follow the feature.
      await expect.poll(() => page.getByRole('link', { name: 'View Audit Log' }).count()).toBe(0);

      await page.getByRole('button', { name: 'Add New User' }).click();
      const dialog = page.getByRole('dialog', { name: 'Create New User' });
      await dialog.getByLabel('Username').fill('tech');
      await dialog.getByLabel('PIN', { exact: true }).fill('5678');
      await dialog.getByRole('button', { name: 'Create User' }).click();
      await eventually(() => dialog.count()).toBe(0);
      await eventually(() => page.getByText('tech', { exact: true }).count()).toBeGreaterThan(0);
      // And tech signs in.
      await signInUser(server, shop.subdomain, 'tech', '5678');
    },
    TEST_TIMEOUT,
  );

  test(
    'a read-only user sees no quick actions and no add buttons',
    async () => {
      const shop = await createShop('readonly', { calendar: true });
      const viewer = await addStaff(shop, 'viewer', { readOnly: true });
      const { page } = await openPage({ as: viewer });
      await page.goto(`/crm/${shop.subdomain}/dashboard`);
      await eventually(() => page.getByRole('heading', { name: 'Customer Management' }).count()).toBe(1);
      await eventually(() => page.getByRole('link', { name: 'View Customers' }).count()).toBe(1);
      await expect.poll(() => page.getByRole('heading', { name: 'Quick Actions' }).count()).toBe(0);
      await expect.poll(() => page.getByRole('link', { name: /^(Add|Create|Schedule)/ }).count()).toBe(0);
      // The tips still name every feature that is on (calendar here).
      await expect
        .poll(() => page.getByRole('list', { name: 'Getting Started' }).locator('li > span:first-child').allInnerTexts())
        .toEqual(['Pipeline', 'Customers', 'Calendar']);
      // …in words for someone who reads: nothing to add, save or drag.
      await expect
        .poll(() => page.getByRole('list', { name: 'Getting Started' }).textContent())
        .toContain('Follow each job through the stages');
      await expect.poll(() => page.getByRole('list', { name: 'Getting Started' }).textContent()).not.toMatch(/\b(Add|Save|drag)\b/);
      await page.getByRole('link', { name: 'View Customers' }).click();
      await eventually(() => page.getByRole('heading', { level: 1, name: 'Customers' }).count()).toBe(1);
      await eventually(() => page.getByText('No customers yet.').count()).toBe(1);
      await expect.poll(() => page.getByRole('button', { name: /Add/ }).count()).toBe(0);

      // Someone who may write gets them all.
      const { page: writer } = await openPage({ as: await addStaff(shop, 'writer') });
      await writer.goto(`/crm/${shop.subdomain}/dashboard`);
      const quick = writer.getByRole('list', { name: 'Quick Actions' });
      await eventually(() => quick.getByRole('link').allInnerTexts()).toEqual([
        'Add New Customer',
        'Create Pipeline Entry',
        'Schedule Appointment',
        'New Service Request',
      ]);
      // Create Pipeline Entry opens the new entry dialog on the pipeline, once (a reload does not reopen it).
      await quick.getByRole('link', { name: 'Create Pipeline Entry' }).click();
      await eventually(() => writer.getByRole('dialog').getByRole('heading', { name: 'Add New Entry' }).count()).toBe(1);
      await eventually(() => new URL(writer.url()).search).toBe('');
      await writer.reload();
      await eventually(() => writer.getByRole('heading', { level: 1, name: 'Pipeline' }).count()).toBe(1);
      await expect.poll(() => writer.getByRole('dialog').count()).toBe(0);
    },
    TEST_TIMEOUT,
  );
});

/** Console messages and page errors of a page, as text. */
function collectConsole(page: Page): string[] {
  const logged: string[] = [];
  page.on('console', (message: ConsoleMessage) => {
    if (message.type() !== 'error' && message.type() !== 'warning') return;
    const url = message.location().url;
    // Chromium reports every failed response on its own; a wrong password or PIN is a 401 by
    // design (the sign-in calls only). Nothing else may fail.
    if (
      /^Failed to load resource: the server responded with a status of 401/.test(message.text()) &&
      /\/api\/(super-admin|auth)\/login$/.test(url)
    ) {
      return;
    }
    logged.push(`${message.type()}: ${message.text()} (${url})`);
  });
  page.on('pageerror', (error) => logged.push(`pageerror: ${error.message}`));
  return logged;
}

describe('the console stays clean in normal use', () => {
  test(
    'provider login with a wrong password, an instance login with a wrong PIN, then the working screens',
    async () => {
      const shop = await createShop('quiet');
      const { page } = await openPage();
      const logged = collectConsole(page);

      await page.goto('/super-admin-login');
      await eventually(() => page.getByRole('heading', { name: 'Super Admin Login' }).count()).toBe(1);
      await page.getByLabel('Username').fill(SUPER_ADMIN.username);
      await page.getByLabel('Password', { exact: true }).fill('not-the-password');
      await page.getByRole('button', { name: 'Sign In' }).click();
      await eventually(() => page.getByText('Invalid username or password').count()).toBe(1);
      await page.getByLabel('Password', { exact: true }).fill(SUPER_ADMIN.password);
      await page.getByRole('button', { name: 'Sign In' }).click();
      await eventually(() => page.getByRole('heading', { name: /^Welcome/ }).count()).toBe(1);
      await page.goto('/crm-selection');
      await eventually(() => page.getByText(`${shop.subdomain} Auto`).count()).toBeGreaterThan(0);

      await page.goto(`/crm/${shop.subdomain}`);
      await eventually(() => page.getByRole('heading', { name: `${shop.subdomain.toUpperCase()} CRM Login` }).count()).toBe(1);
      await page.getByLabel('Username').fill('owner');
      await page.getByLabel('PIN', { exact: true }).fill('9999');
      await page.getByRole('button', { name: 'Sign In' }).click();
      await eventually(() => page.getByText('Invalid username or PIN').count()).toBe(1);
      await page.getByLabel('PIN', { exact: true }).fill('1234');
      await page.getByRole('button', { name: 'Sign In' }).click();
      await eventually(() => pathOf(page)).toBe(`/crm/${shop.subdomain}/dashboard`);
      await eventually(() => page.getByText(/Created the CRM instance/).count()).toBeGreaterThan(0);

      const nav = page.getByRole('navigation', { name: 'Main' });
      await nav.getByRole('link', { name: 'Pipeline' }).click();
      await eventually(() => page.getByRole('heading', { level: 1, name: 'Pipeline' }).count()).toBe(1);
      await nav.getByRole('link', { name: 'Customers' }).click();
      await eventually(() => page.getByText('No customers yet.').count()).toBe(1);
      await nav.getByRole('link', { name: 'Home' }).click();
      await eventually(() => page.getByRole('heading', { name: 'Quick Actions' }).count()).toBe(1);
      // Fresh page loads check the session again: signed out, then in.
      const { page: visitor } = await openPage();
      const visitorLogged = collectConsole(visitor);
      await visitor.goto(`/crm/${shop.subdomain}/customers`);
      await eventually(() => pathOf(visitor)).toBe(`/crm/${shop.subdomain}`);
      await visitor.goto('/');
      await eventually(() => pathOf(visitor)).toBe('/super-admin-login');
      await visitor.goto('/register');
      await eventually(() => visitor.getByRole('heading', { name: 'Need an account?' }).count()).toBe(1);

      await expect.poll(() => [...logged, ...visitorLogged]).toEqual([]);
    },
    TEST_TIMEOUT,
  );
});

describe('screenshots of the changed screens', () => {
  test('login, register, selection, builder, users without the Admin feature, read-only dashboard', async () => {
    const shop = await createShop('shots', { admin: false });
    const viewer = await addStaff(shop, 'viewer', { readOnly: true });
    const provider = await signInSuperAdmin(server);
    for (const variant of VARIANTS) {
      const { page } = await openPage(variant);
      await page.goto(`/crm/${shop.subdomain}`);
      await eventually(() => page.getByRole('link', { name: 'Need an account?' }).count()).toBe(1);
      await snap(page, `day-one-login-${variant.suffix}`);
      await page.getByRole('link', { name: 'Need an account?' }).click();
      await eventually(() => page.getByRole('link', { name: 'Back to Sign In' }).count()).toBe(1);
      await snap(page, `day-one-register-${variant.suffix}`);

      const { page: admin } = await openPage({ ...variant, as: provider });
      await admin.goto('/crm-selection');
      await eventually(() => admin.getByRole('link', { name: `Open ${shop.subdomain} Auto` }).count()).toBe(1);
      await snap(admin, `day-one-crm-selection-${variant.suffix}`);
      await admin.getByRole('button', { name: 'Create New CRM Instance' }).click();
      await admin.getByRole('dialog').getByLabel('Name', { exact: true }).fill("Joe's Garage");
      await eventually(() => admin.getByTestId('create-instance-address').count()).toBe(1);
      await snap(admin, `day-one-create-dialog-${variant.suffix}`);
      await admin.goto('/crm-builder');
      await admin.getByLabel('Business Name').fill("Rita's Rides");
      await eventually(() => admin.getByTestId('subdomain-preview').count()).toBe(1);
      await snap(admin, `day-one-crm-builder-${variant.suffix}`);

      const { page: owner } = await openPage({ ...variant, as: shop.owner });
      await owner.goto(`/crm/${shop.subdomain}/dashboard`);
      await eventually(() => owner.getByRole('heading', { name: 'User Management' }).count()).toBe(1);
      await snap(owner, `day-one-dashboard-no-admin-${variant.suffix}`);
      await owner.goto(`/crm/${shop.subdomain}/admin`);
      await eventually(() => owner.getByText('viewer', { exact: true }).count()).toBeGreaterThan(0);
      await snap(owner, `day-one-users-no-admin-${variant.suffix}`);

      const { page: reader } = await openPage({ ...variant, as: viewer });
      await reader.goto(`/crm/${shop.subdomain}/dashboard`);
      await eventually(() => reader.getByRole('heading', { name: 'Getting Started' }).count()).toBe(1);
      await snap(reader, `day-one-dashboard-read-only-${variant.suffix}`);
    }
  }, 300_000);
});
