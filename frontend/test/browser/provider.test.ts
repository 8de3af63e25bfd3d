import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ApiClient, createTestInstance, startTestServer, SUPER_ADMIN, type TestServer } from '../../../backend/test/support/server.ts';
import { launchBrowser, newPage, snap } from './support.ts';

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('provider: super admin and CRM instances', () => {
  test('signs in, creates an instance with its first admin, and sees its card', async () => {
    const { page, context } = await newPage(browser, { baseURL: server.url });
    await page.goto('/');
    await page.waitForURL('**/super-admin-login');
    await page.getByLabel('Username').fill(SUPER_ADMIN.username);
    await page.getByLabel('Password', { exact: true }).fill(SUPER_ADMIN.password);
    await snap(page, 'super-admin-login');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await snap(page, 'provider-dashboard');

    await page.goto('/crm-selection');
    await expect.poll(() => page.getByRole('button', { name: 'Create New CRM Instance' }).count()).toBeGreaterThan(0);
    // The reserved instance is hidden from the list.
    expect(await page.getByText('/crm/maven').count()).toBe(0);
    await page.getByRole('button', { name: 'Create New CRM Instance' }).first().click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name', { exact: true }).fill('Speedy Brakes');
    await dialog.getByLabel('Display Name', { exact: true }).fill('Speedy Brakes & Tyres');
    await dialog.getByLabel('Description').fill('Brake specialists');
    await dialog.getByLabel('Admin Username').fill('speedy');
    await dialog.getByLabel('Admin Display Name').fill('Sam Speedy');
    await dialog.getByLabel('Admin PIN').fill('4321');
    await snap(page, 'create-instance-dialog');
    await dialog.getByRole('button', { name: /^Create/ }).click();
    await expect
      .poll(() => page.getByText('CRM instance created successfully!', { exact: true }).count(), { timeout: 3000 })
      .toBeGreaterThan(0);
    await expect.poll(() => page.getByText('Speedy Brakes & Tyres').count()).toBeGreaterThan(0);
    await snap(page, 'crm-selection');

    // The first admin exists in the new instance (visible through the API as the super admin).
    const instances = await page.evaluate(async () => (await fetch('/api/crm-instances')).json());
    expect(instances.map((i: { subdomain: string }) => i.subdomain)).toContain('speedybrakes');
    await context.close();
  });

  test('a wrong password shows "Invalid username or password"', async () => {
    const { page, context } = await newPage(browser, { baseURL: server.url });
    await page.goto('/super-admin-login');
    await page.getByLabel('Username').fill(SUPER_ADMIN.username);
    await page.getByLabel('Password', { exact: true }).fill('definitely-wrong');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect.poll(() => page.getByText('Invalid username or password').count()).toBe(1);
    expect(new URL(page.url()).pathname).toBe('/super-admin-login');
    await context.close();
  });

  test('the builder derives the subdomain and creates the instance', async () => {
    const { page, context } = await newPage(browser, { baseURL: server.url, phone: true, colorScheme: 'dark' });
    await page.goto('/super-admin-login');
    await page.getByLabel('Username').fill(SUPER_ADMIN.username);
    await page.getByLabel('Password', { exact: true }).fill(SUPER_ADMIN.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.goto('/crm-builder');
    await page.getByLabel('Business Name').fill("Rita's Rides 2");
    await expect.poll(() => page.getByText(/ritasrides2\./).count()).toBeGreaterThan(0);
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
    await expect.poll(() => page.getByText("Rita's Rides 2").count()).toBeGreaterThan(0);
    await context.close();
  });

  test("gives the provider's own instance (maven) its first admin, and resets that admin's PIN", async () => {
    const signIn = async (page: Page) => {
      await page.goto('/super-admin-login');
      await page.getByLabel('Username').fill(SUPER_ADMIN.username);
      await page.getByLabel('Password', { exact: true }).fill(SUPER_ADMIN.password);
      await page.getByRole('button', { name: 'Sign In' }).click();
      await page.waitForURL((url) => url.pathname === '/');
      await page.goto('/crm-selection');
    };
    const { page, context } = await newPage(browser, { baseURL: server.url });
    await signIn(page);
    const provider = page.getByRole('region', { name: "Provider's CRM (maven)" });
    expect(await provider.getByRole('link', { name: /^Open/ }).getAttribute('href')).toBe('/maven');
    await snap(page, 'crm-selection-manage-users');
    await provider.getByRole('button', { name: 'Manage users' }).click();
    const dialog = page.getByRole('dialog');
    await expect.poll(() => dialog.getByRole('heading', { name: /^Users of / }).count()).toBe(1);
    await expect.poll(() => dialog.getByText('No users yet. Add the first admin.').count()).toBe(1);

    await dialog.getByLabel('Username').fill('mavenboss');
    await dialog.getByLabel('Display Name').fill('Maven Boss');
    await dialog.getByLabel('PIN', { exact: true }).fill('2468');
    await dialog.getByRole('button', { name: 'Add admin' }).click();
    await expect.poll(() => page.getByText('Admin added', { exact: true }).count()).toBeGreaterThan(0);
    const row = dialog.getByRole('listitem').filter({ hasText: 'mavenboss' });
    await expect.poll(() => row.count()).toBe(1);
    expect(await row.getByText('Admin', { exact: true }).count()).toBe(1);
    expect(await row.getByText('Maven Boss').count()).toBe(1);
    await snap(page, 'manage-users-dialog');

    await row.getByRole('button', { name: 'Reset PIN' }).click();
    await dialog.getByLabel('New PIN').fill('1357');
    await snap(page, 'manage-users-reset-pin');
    await dialog.getByRole('button', { name: 'Save PIN' }).click();
    await expect.poll(() => page.getByText('mavenboss can sign in with the new PIN.', { exact: true }).count()).toBeGreaterThan(0);
    expect(await dialog.getByLabel('New PIN').count()).toBe(0);
    await context.close();

    // The same dialog on a phone, dark.
    const phone = await newPage(browser, { baseURL: server.url, phone: true, colorScheme: 'dark' });
    await signIn(phone.page);
    await phone.page.getByRole('region', { name: "Provider's CRM (maven)" }).getByRole('button', { name: 'Manage users' }).click();
    const phoneRow = phone.page.getByRole('dialog').getByRole('listitem').filter({ hasText: 'mavenboss' });
    await expect.poll(() => phoneRow.count()).toBe(1);
    await phoneRow.getByRole('button', { name: 'Reset PIN' }).click();
    await snap(phone.page, 'manage-users-dialog-phone-dark');
    await phone.context.close();

    // The new PIN signs in to maven from a fresh context; the old one no longer does.
    const fresh = await newPage(browser, { baseURL: server.url });
    await fresh.page.goto('/');
    const login = (pin: string) =>
      fresh.page.evaluate(async (pin) => {
        const response = await fetch('/api/auth/login', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'X-CRM-Request': '1' },
          body: JSON.stringify({ username: 'mavenboss', pin, instance: 'maven' }),
        });
        return { status: response.status, body: await response.json() };
      }, pin);
    expect((await login('2468')).status).toBe(401);
    const signedIn = await login('1357');
    expect(signedIn.status).toBe(200);
    expect(signedIn.body).toMatchObject({ username: 'mavenboss', role: 'admin', instance: { subdomain: 'maven' } });
    await fresh.context.close();
  });

  test('deactivates an instance after a confirmation (its staff cannot sign in), then activates it again', async () => {
    const shop = await createTestInstance(server, 'pauseshop', { username: 'owner', pin: '1234' });
    const staffSignIn = () =>
      new ApiClient(server.url).post('/api/auth/login', { username: shop.admin.username, pin: shop.admin.pin, instance: shop.subdomain });
    const { page, context } = await newPage(browser, { baseURL: server.url });
    await page.goto('/super-admin-login');
    await page.getByLabel('Username').fill(SUPER_ADMIN.username);
    await page.getByLabel('Password', { exact: true }).fill(SUPER_ADMIN.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.goto('/crm-selection');
    const card = page.getByRole('listitem').filter({ has: page.getByRole('link', { name: 'pauseshop Auto' }) });
    await card.getByRole('button', { name: 'Deactivate' }).click();
    const confirm = page.getByRole('alertdialog');
    await expect.poll(() => confirm.getByText('Deactivate pauseshop Auto?').count()).toBe(1);
    await confirm.getByRole('button', { name: 'Deactivate' }).click();
    await expect.poll(() => card.getByText('Inactive', { exact: true }).count()).toBe(1);
    expect((await staffSignIn()).status).toBe(401);
    await snap(page, 'crm-selection-inactive');

    await card.getByRole('button', { name: 'Activate' }).click();
    await expect.poll(() => card.getByText('Inactive', { exact: true }).count()).toBe(0);
    expect((await staffSignIn()).status).toBe(200);
    await context.close();
  });
});
