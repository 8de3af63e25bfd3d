import type { Browser, Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { ApiClient, signInSuperAdmin, SUPER_ADMIN, type TestServer } from '../../../backend/test/support/server.ts';
import {
  addMavenUser,
  createInstance,
  newPage,
  ownServer,
  type PageOptions,
  serverAndBrowserForFile,
  signedInPage,
  SLOW,
  snap,
  TEST_TIMEOUT,
  toastTexts,
  unique,
} from './support.ts';

// One server and one browser for the file; every test makes its own instances, users and browser context.
let server: TestServer;
let browser: Browser;

serverAndBrowserForFile((s, b) => ([server, browser] = [s, b]));

/** A page signed in as the super admin (through the API: the sign-in screen has its own test). */
async function superAdminPage(options: Omit<PageOptions, 'baseURL'> = {}, on: TestServer = server) {
  return await signedInPage(browser, await signInSuperAdmin(on), options);
}

/** Opens the instance list and waits for it. */
async function openSelection(page: Page): Promise<void> {
  await page.goto('/crm-selection');
  await expect.poll(() => page.getByRole('button', { name: 'Create New CRM Instance' }).count(), { timeout: SLOW }).toBeGreaterThan(0);
}

/** The provider's own instance's card on the instance list. */
const providerRegion = (page: Page) => page.getByRole('region', { name: "Provider's CRM (maven)" });

/** The PIN sign-in to the provider's instance, as a browser would send it. */
const mavenSignIn = (username: string, pin: string, on: TestServer = server) =>
  new ApiClient(on.url).post('/api/auth/login', { username, pin, instance: 'maven' });

describe('provider: super admin and CRM instances', () => {
  test('the super admin signs in with the form and lands on the provider dashboard', async () => {
    const { page } = await newPage(browser, { baseURL: server.url });
    await page.goto('/');
    await page.waitForURL('**/super-admin-login');
    await page.getByLabel('Username').fill(SUPER_ADMIN.username);
    await page.getByLabel('Password', { exact: true }).fill(SUPER_ADMIN.password);
    await snap(page, 'super-admin-login');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await snap(page, 'provider-dashboard');
  });

  test('a wrong password shows "Invalid username or password"', async () => {
    const { page } = await newPage(browser, { baseURL: server.url });
    await page.goto('/super-admin-login');
    await page.getByLabel('Username').fill(SUPER_ADMIN.username);
    await page.getByLabel('Password', { exact: true }).fill('definitely-wrong');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect.poll(() => page.getByText('Invalid username or password').count(), { timeout: SLOW }).toBe(1);
    await expect.poll(() => new URL(page.url()).pathname).toBe('/super-admin-login');
  });

  test(
    'creates an instance with its first admin, and sees its card',
    async () => {
      const suffix = unique('');
      const { page } = await superAdminPage();
      await openSelection(page);
      // The reserved instance is hidden from the list.
      await expect.poll(() => page.getByText('/crm/maven').count()).toBe(0);
      await page.getByRole('button', { name: 'Create New CRM Instance' }).first().click();
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel('Name', { exact: true }).fill(`Speedy Brakes ${suffix}`);
      await dialog.getByLabel('Display Name', { exact: true }).fill(`Speedy Brakes & Tyres ${suffix}`);
      await dialog.getByLabel('Description').fill('Brake specialists');
      await dialog.getByLabel('Admin Username').fill('speedy');
      await dialog.getByLabel('Admin Display Name').fill('Sam Speedy');
      await dialog.getByLabel('Admin PIN').fill('4321');
      await snap(page, 'create-instance-dialog');
      await dialog.getByRole('button', { name: /^Create/ }).click();
      await expect
        .poll(() => page.getByText('CRM instance created successfully!', { exact: true }).count(), { timeout: SLOW })
        .toBeGreaterThan(0);
      await expect.poll(() => page.getByText(`Speedy Brakes & Tyres ${suffix}`).count()).toBeGreaterThan(0);
      await snap(page, 'crm-selection');

      // The instance exists (through the API, as the super admin), and so does its first admin.
      await expect
        .poll(async () =>
          (await page.evaluate(async () => (await fetch('/api/crm-instances')).json())).map((i: { subdomain: string }) => i.subdomain),
        )
        .toContain(`speedybrakes${suffix}`);
      const firstAdmin = await new ApiClient(server.url).post('/api/auth/login', {
        username: 'speedy',
        pin: '4321',
        instance: `speedybrakes${suffix}`,
      });
      expect(firstAdmin.status, firstAdmin.text).toBe(200);
    },
    TEST_TIMEOUT,
  );

  test(
    'the builder derives the subdomain and creates the instance',
    async () => {
      const suffix = unique('');
      const { page } = await superAdminPage({ phone: true, colorScheme: 'dark' });
      await page.goto('/crm-builder');
      await page.getByLabel('Business Name').fill(`Rita's Rides ${suffix}`);
      // The shop's address, with the subdomain derived from the name.
      await expect.poll(() => page.getByTestId('subdomain-preview').textContent(), { timeout: SLOW }).toContain(`ritasrides${suffix}`);
      await page
        .getByLabel(/Admin Username|Username/)
        .first()
        .fill('rita');
      await page.getByLabel(/PIN/).first().fill('1111');
      await snap(page, 'crm-builder-phone-dark');
      await page
        .getByRole('button', { name: /Create/ })
        .last()
        .click();
      await page.waitForURL('**/crm-selection');
      await expect.poll(() => page.getByText(`Rita's Rides ${suffix}`).count(), { timeout: SLOW }).toBeGreaterThan(0);
    },
    TEST_TIMEOUT,
  );

  test(
    "gives the provider's own instance (maven) its first admin",
    async () => {
      // A server of its own: the provider's instance has no users yet there.
      const own = await ownServer();
      const { page } = await superAdminPage({}, own);
      await openSelection(page);
      const provider = providerRegion(page);
      await expect.poll(() => provider.getByRole('link', { name: /^Open/ }).getAttribute('href')).toBe('/maven');
      await snap(page, 'crm-selection-manage-users');
      await provider.getByRole('button', { name: 'Manage users' }).click();
      const dialog = page.getByRole('dialog');
      await expect.poll(() => dialog.getByRole('heading', { name: /^Users of / }).count()).toBe(1);
      await expect.poll(() => dialog.getByText('No users yet. Add the first admin.').count()).toBe(1);

      await dialog.getByLabel('Username').fill('mavenboss');
      await dialog.getByLabel('Display Name').fill('Maven Boss');
      await dialog.getByLabel('PIN', { exact: true }).fill('2468');
      await dialog.getByRole('button', { name: 'Add admin' }).click();
      await expect.poll(() => toastTexts(page), { timeout: SLOW }).toContain('Admin added');
      const row = dialog.getByRole('listitem').filter({ hasText: 'mavenboss' });
      await expect.poll(() => row.count()).toBe(1);
      await expect.poll(() => row.getByText('Admin', { exact: true }).count()).toBe(1);
      await expect.poll(() => row.getByText('Maven Boss').count()).toBe(1);
      await snap(page, 'manage-users-dialog');
      // The admin signs in to maven with that PIN.
      const signedIn = await mavenSignIn('mavenboss', '2468', own);
      expect(signedIn.status, signedIn.text).toBe(200);
      expect(signedIn.body).toMatchObject({ username: 'mavenboss', role: 'admin', instance: { subdomain: 'maven' } });
    },
    TEST_TIMEOUT,
  );

  test(
    "resets the maven admin's PIN: the new PIN signs in from a fresh context, the old one no longer does",
    async () => {
      const username = unique('mavenboss');
      await addMavenUser(server, { username, displayName: 'Maven Boss', pin: '2468' });
      const { page } = await superAdminPage();
      await openSelection(page);
      await providerRegion(page).getByRole('button', { name: 'Manage users' }).click();
      const dialog = page.getByRole('dialog');
      const row = dialog.getByRole('listitem').filter({ hasText: username });
      await expect.poll(() => row.count()).toBe(1);
      await row.getByRole('button', { name: 'Reset PIN' }).click();
      await dialog.getByLabel('New PIN').fill('1357');
      await snap(page, 'manage-users-reset-pin');
      await dialog.getByRole('button', { name: 'Save PIN' }).click();
      await expect
        .poll(() => page.getByText(`${username} can sign in with the new PIN.`, { exact: true }).count(), { timeout: SLOW })
        .toBeGreaterThan(0);
      await expect.poll(() => dialog.getByLabel('New PIN').count()).toBe(0);

      // The new PIN signs in to maven from a fresh context; the old one no longer does.
      const fresh = await newPage(browser, { baseURL: server.url });
      await fresh.page.goto('/');
      const login = (pin: string) =>
        fresh.page.evaluate(
          async ({ username, pin }) => {
            const response = await fetch('/api/auth/login', {
              method: 'POST',
              headers: { 'Content-Type': 'application/json', 'X-CRM-Request': '1' },
              body: JSON.stringify({ username, pin, instance: 'maven' }),
            });
            return { status: response.status, body: await response.json() };
          },
          { username, pin },
        );
      await expect.poll(async () => (await login('2468')).status, { timeout: SLOW }).toBe(401);
      const signedIn = await login('1357');
      expect(signedIn.status).toBe(200);
      expect(signedIn.body).toMatchObject({ username, role: 'admin', instance: { subdomain: 'maven' } });
    },
    TEST_TIMEOUT,
  );

  test(
    'screenshot: the manage-users dialog on a phone, dark',
    async () => {
      const username = unique('mavenboss');
      await addMavenUser(server, { username, displayName: 'Maven Boss', pin: '2468' });
      const { page } = await superAdminPage({ phone: true, colorScheme: 'dark' });
      await openSelection(page);
      await providerRegion(page).getByRole('button', { name: 'Manage users' }).click();
      const phoneRow = page.getByRole('dialog').getByRole('listitem').filter({ hasText: username });
      await expect.poll(() => phoneRow.count()).toBe(1);
      await phoneRow.getByRole('button', { name: 'Reset PIN' }).click();
      await expect.poll(() => page.getByRole('dialog').getByLabel('New PIN').count()).toBe(1);
      await snap(page, 'manage-users-dialog-phone-dark');
    },
    TEST_TIMEOUT,
  );

  test(
    "the instance's history puts each setting in words, as the audit log does: features by name, yes and no",
    async () => {
      const shop = await createInstance(server, unique('historyshop'));
      const superAdmin = await signInSuperAdmin(server);
      const changed = await superAdmin.put(`/api/crm-instances/${shop.id}`, {
        description: 'Brakes and tires',
        features: { calendar: true, serviceRequests: false },
        publicRequests: true,
      });
      expect(changed.status, changed.text).toBe(200);
      expect((await superAdmin.patch(`/api/crm-instances/${shop.id}`, { isActive: false })).status).toBe(200);
      for (const options of [{}, { colorScheme: 'dark' as const }, { phone: true }]) {
        const { page } = await signedInPage(browser, superAdmin, options);
        await openSelection(page);
        const card = page.getByRole('listitem').filter({ has: page.getByRole('link', { name: `${shop.subdomain} Auto` }) });
        await card.getByRole('button', { name: /^Edit/ }).click();
        const dialog = page.getByRole('dialog');
        await dialog.getByRole('tab', { name: 'history' }).click();
        const changes = dialog.getByRole('list', { name: 'Changes, newest first' });
        const rows = () => changes.locator('ul li').allTextContents();
        await expect.poll(rows, { timeout: SLOW }).toContain('Active: Yes → No');
        const now = await rows();
        expect(now).toContain('Features: Pipeline, Customers, Admin, Service Requests → Pipeline, Customers, Calendar, Admin');
        expect(now).toContain('Public request page: No → Yes');
        // A value that appears from nothing shows only the new one.
        expect(now).toContain('Description: Brakes and tires');
        expect(now).toContain('Features: Pipeline, Customers, Admin, Service Requests');
        await snap(page, `instance-history${options.colorScheme === 'dark' ? '-dark' : ''}${options.phone ? '-phone' : ''}`);
      }
    },
    TEST_TIMEOUT,
  );

  test(
    'deactivates an instance after a confirmation: its staff cannot sign in',
    async () => {
      const shop = await createInstance(server, unique('pauseshop'), { username: 'owner', pin: '1234' });
      const staffSignIn = () =>
        new ApiClient(server.url).post('/api/auth/login', { username: shop.admin.username, pin: shop.admin.pin, instance: shop.subdomain });
      const { page } = await superAdminPage();
      await openSelection(page);
      const card = page.getByRole('listitem').filter({ has: page.getByRole('link', { name: `${shop.subdomain} Auto` }) });
      await card.getByRole('button', { name: 'Deactivate' }).click();
      const confirm = page.getByRole('alertdialog');
      await expect.poll(() => confirm.getByText(`Deactivate ${shop.subdomain} Auto?`).count()).toBe(1);
      await confirm.getByRole('button', { name: 'Deactivate' }).click();
      await expect.poll(() => card.getByText('Inactive', { exact: true }).count(), { timeout: SLOW }).toBe(1);
      // A closed CRM is refused as such (403), not as a wrong PIN.
      await expect.poll(async () => (await staffSignIn()).status, { timeout: SLOW }).toBe(403);
      await snap(page, 'crm-selection-inactive');
    },
    TEST_TIMEOUT,
  );

  test(
    'activates an inactive instance again: its staff sign in',
    async () => {
      const shop = await createInstance(server, unique('pauseshop'), { username: 'owner', pin: '1234' });
      const superAdmin = await signInSuperAdmin(server);
      expect((await superAdmin.patch(`/api/crm-instances/${shop.id}`, { isActive: false })).status).toBe(200);
      const staffSignIn = () =>
        new ApiClient(server.url).post('/api/auth/login', { username: shop.admin.username, pin: shop.admin.pin, instance: shop.subdomain });
      const { page } = await signedInPage(browser, superAdmin);
      await openSelection(page);
      const card = page.getByRole('listitem').filter({ has: page.getByRole('link', { name: `${shop.subdomain} Auto` }) });
      await expect.poll(() => card.getByText('Inactive', { exact: true }).count()).toBe(1);
      await card.getByRole('button', { name: 'Activate' }).click();
      await expect.poll(() => card.getByText('Inactive', { exact: true }).count(), { timeout: SLOW }).toBe(0);
      await expect.poll(async () => (await staffSignIn()).status, { timeout: SLOW }).toBe(200);
    },
    TEST_TIMEOUT,
  );
});
