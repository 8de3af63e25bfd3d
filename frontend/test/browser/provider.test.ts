import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startTestServer, SUPER_ADMIN, type TestServer } from '../../../backend/test/support/server.ts';
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
    await expect.poll(() => page.getByText('CRM instance created successfully!', { exact: true }).count(), { timeout: 3000 }).toBeGreaterThan(0);
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
    await page.getByLabel(/Admin Username|Username/).first().fill('rita');
    await page.getByLabel(/PIN/).first().fill('1111');
    await snap(page, 'crm-builder-phone-dark');
    await page.getByRole('button', { name: /Create/ }).last().click();
    await page.waitForURL('**/crm-selection');
    await expect.poll(() => page.getByText("Rita's Rides 2").count()).toBeGreaterThan(0);
    await context.close();
  });
});
