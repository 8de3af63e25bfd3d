import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  createTestInstance,
  signInSuperAdmin,
  startTestServer,
  type TestInstance,
  type TestServer,
} from '../../../backend/test/support/server.ts';
import { launchBrowser, newPage, snap } from './support.ts';

let server: TestServer;
let browser: Browser;
let speedy: TestInstance;
let other: TestInstance;

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  [speedy, other] = await Promise.all([
    createTestInstance(server, 'speedy', { username: 'owner', pin: '1234' }),
    createTestInstance(server, 'otherco', { username: 'boss', pin: '9999' }),
  ]);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function signIn(page: Page, slug: string, username: string, pin: string): Promise<void> {
  await page.goto(`/crm/${slug}`);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('PIN', { exact: true }).fill(pin);
  await page.getByRole('button', { name: 'Sign In' }).click();
}

/** Sign-ins and account changes hash PINs and wait for the projection: allow them a few seconds. */
const eventually = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 8000 });
const pathOf = (page: Page) => new URL(page.url()).pathname;
const mainNav = (page: Page) => page.getByRole('navigation', { name: 'Main' });
/** The users table's row of one username (the table shows on wide screens). */
const userRow = (page: Page, username: string): Locator =>
  page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: new RegExp(`^${username}( You)?$`) }) });

describe('instance sign-in, sessions and user administration', () => {
  test('signs in at /crm/{instance}, sees the dashboard and navigation, and signs out', async () => {
    const { page, context } = await newPage(browser, { baseURL: server.url });
    // A protected page without a session leads to the instance login.
    await page.goto(`/crm/${speedy.subdomain}/dashboard`);
    await page.waitForURL(`**/crm/${speedy.subdomain}`);
    await eventually(() => page.getByRole('heading', { name: 'SPEEDY CRM Login' }).count()).toBe(1);
    expect(await page.getByRole('link', { name: 'Back to Home' }).count()).toBe(1);
    // Signed-out visitors see Login and Register in the header.
    expect(await page.getByRole('link', { name: 'Register' }).count()).toBe(1);
    await page.getByLabel('Username').fill(speedy.admin.username);
    await page.getByLabel('PIN', { exact: true }).fill(speedy.admin.pin);
    await snap(page, 'instance-login');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL(`**/crm/${speedy.subdomain}/dashboard`);

    await eventually(() => page.getByRole('heading', { level: 1, name: /^Good (morning|afternoon|evening), Owner$/ }).count()).toBe(1);
    expect(await page.getByText('Manage your customer relationships and pipeline efficiently.').count()).toBe(1);
    // Customers and Pipeline show counts (a new instance has none of either).
    await eventually(() => page.getByText('0 customers', { exact: true }).count()).toBe(1);
    await eventually(() => page.getByText('0 open jobs', { exact: true }).count()).toBe(1);
    for (const card of [
      'Pipeline Management',
      'Customer Management',
      'Calendar & Scheduling',
      'Administration',
      'Getting Started',
      'Quick Actions',
      'Recent Activity',
    ]) {
      expect(await page.getByRole('heading', { name: card }).count(), card).toBe(1);
    }
    // Calendar is off by default: its card says Coming Soon and its nav link is left out.
    expect(await page.getByText('Coming Soon').count()).toBeGreaterThan(0);
    const nav = mainNav(page);
    expect(await nav.getByRole('link').allInnerTexts()).toEqual(['Pipeline', 'Customers', 'Admin']);
    // The current page is inert.
    expect(await nav.locator('[aria-current="page"]').innerText()).toBe('Home');
    // Recent Activity is real: the instance's creation is in it.
    await eventually(() => page.getByText(/Created the CRM instance/).count()).toBeGreaterThan(0);
    await snap(page, 'instance-dashboard');

    await nav.getByRole('link', { name: 'Customers' }).click();
    await page.waitForURL(`**/crm/${speedy.subdomain}/customers`);
    await eventually(() => nav.locator('[aria-current="page"]').innerText()).toBe('Customers');

    // The account menu.
    await page.getByRole('button', { name: 'Account menu' }).click();
    await eventually(() => page.getByText(/Signed in as\s*owner/).count()).toBe(1);
    await page.getByRole('menuitem', { name: 'Your Profile' }).click();
    await page.waitForURL('**/profile');
    await eventually(() => page.getByRole('heading', { name: 'Your Profile' }).count()).toBe(1);

    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
    await page.waitForURL(`**/crm/${speedy.subdomain}`);
    await eventually(() => page.getByRole('heading', { name: 'SPEEDY CRM Login' }).count()).toBe(1);
    expect(await mainNav(page).count()).toBe(0);
    // The session is gone on the server too.
    await page.goto(`/crm/${speedy.subdomain}/admin`);
    await page.waitForURL(`**/crm/${speedy.subdomain}`);
    await context.close();
  });

  test('a wrong PIN shows "Invalid username or PIN"; the client checks the rules first', async () => {
    const { page, context } = await newPage(browser, { baseURL: server.url });
    await signIn(page, speedy.subdomain, 'ow', '12');
    await eventually(() => page.getByText('Username must be at least 3 characters').count()).toBe(1);
    expect(await page.getByText('PIN must be exactly 4 digits').count()).toBe(1);

    await signIn(page, speedy.subdomain, speedy.admin.username, '0000');
    await eventually(() => page.getByText('Invalid username or PIN').count()).toBe(1);
    expect(pathOf(page)).toBe(`/crm/${speedy.subdomain}`);
    // An unknown instance is a clear "No such CRM" page, not a login form.
    await page.goto('/crm/nosuchshop');
    await eventually(() => page.getByRole('heading', { name: 'No such CRM' }).count()).toBe(1);
    expect(await page.getByLabel('Username').count()).toBe(0);

    // The subdomain family's login; from there a sign-in leads to /pipeline (spec-platform.md §4),
    // which ends on the signed-in instance's pipeline.
    await page.goto(`/${speedy.subdomain}/login`);
    await eventually(() => page.getByRole('heading', { name: 'SPEEDY CRM Login' }).count()).toBe(1);
    await page.getByLabel('Username').fill(speedy.admin.username);
    await page.getByLabel('PIN', { exact: true }).fill(speedy.admin.pin);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL(`**/crm/${speedy.subdomain}/pipeline`);
    await eventually(() => page.getByRole('heading', { level: 1, name: 'Pipeline' }).count()).toBe(1);
    await context.close();
  });

  test('the admin creates, promotes, demotes, locks, unlocks and deletes a user', async () => {
    const admin = await newPage(browser, { baseURL: server.url });
    const { page } = admin;
    await signIn(page, speedy.subdomain, speedy.admin.username, speedy.admin.pin);
    await page.waitForURL('**/dashboard');
    await mainNav(page).getByRole('link', { name: 'Admin' }).click();
    await page.waitForURL(`**/crm/${speedy.subdomain}/admin`);
    await eventually(() => page.getByRole('heading', { name: 'Admin Dashboard' }).count()).toBe(1);
    expect(await page.getByRole('heading', { name: 'User Management' }).count()).toBe(1);
    expect(await page.getByRole('heading', { name: 'Customer Data Security' }).count()).toBe(1);
    expect(await page.getByRole('link', { name: 'View Audit Log' }).getAttribute('href')).toBe(`/crm/${speedy.subdomain}/admin/audit`);

    // The admin's own row cannot be changed.
    const own = userRow(page, 'owner');
    await eventually(() => own.count()).toBe(1);
    for (const name of ['Make User', 'Lock', 'Delete']) expect(await own.getByRole('button', { name }).isDisabled(), name).toBe(true);

    // Create: the PIN rule first, then the user joins the list.
    await page.getByRole('button', { name: 'Add New User' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create New User' });
    await dialog.getByLabel('Username').fill('bob');
    await dialog.getByLabel(/Display Name/).fill('Bob Builder');
    await dialog.getByLabel('PIN', { exact: true }).fill('56');
    await dialog.getByRole('button', { name: 'Create User' }).click();
    await eventually(() => dialog.getByText('PIN must be exactly 4 digits', { exact: true }).count()).toBe(1);
    await dialog.getByLabel('PIN', { exact: true }).fill('5678');
    expect(await dialog.getByRole('combobox', { name: 'Role' }).innerText()).toBe('User');
    await snap(page, 'admin-create-user');
    await dialog.getByRole('button', { name: 'Create User' }).click();
    await eventually(() => dialog.count()).toBe(0);
    const bob = userRow(page, 'bob');
    await eventually(() => bob.count()).toBe(1);
    expect(await bob.getByRole('cell').allInnerTexts()).toEqual(expect.arrayContaining(['Bob Builder', 'User', 'Active']));

    // A taken username: the dialog stays open with the server's message.
    await page.getByRole('button', { name: 'Add New User' }).click();
    await dialog.getByLabel('Username').fill('bob');
    await dialog.getByLabel('PIN', { exact: true }).fill('1111');
    await dialog.getByRole('button', { name: 'Create User' }).click();
    await eventually(() => dialog.getByRole('alert').innerText()).toMatch(/\S/);
    expect(await dialog.count()).toBe(1);
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    // Role changes need no confirmation.
    await bob.getByRole('button', { name: 'Make Admin' }).click();
    await eventually(() => bob.getByRole('button', { name: 'Make User' }).count()).toBe(1);
    expect(await bob.getByRole('cell', { name: 'Admin', exact: true }).count()).toBe(1);
    await bob.getByRole('button', { name: 'Make User' }).click();
    await eventually(() => bob.getByRole('button', { name: 'Make Admin' }).count()).toBe(1);

    // Permissions: give bob delete rights.
    await bob.getByRole('button', { name: 'Permissions' }).click();
    const permissions = page.getByRole('dialog', { name: 'Permissions for bob' });
    expect(await permissions.getByLabel('Can read').isChecked()).toBe(true);
    expect(await permissions.getByLabel('Can delete').isChecked()).toBe(false);
    await permissions.getByLabel('Can delete').check();
    await permissions.getByRole('button', { name: 'Save Permissions' }).click();
    await eventually(() => permissions.count()).toBe(0);
    await eventually(() => page.getByText('Permissions updated').count()).toBeGreaterThan(0);

    // Lock, after a confirmation: bob cannot sign in (second browser).
    await bob.getByRole('button', { name: 'Lock' }).click();
    const confirmLock = page.getByRole('alertdialog');
    await eventually(() => confirmLock.getByText('Are you sure you want to lock this user account?').count()).toBe(1);
    await confirmLock.getByRole('button', { name: 'Lock' }).click();
    await eventually(() => bob.getByRole('cell', { name: 'Locked' }).count()).toBe(1);
    await snap(page, 'admin-desktop-light');

    const bobBrowser = await newPage(browser, { baseURL: server.url });
    await signIn(bobBrowser.page, speedy.subdomain, 'bob', '5678');
    await eventually(() => bobBrowser.page.getByText('Invalid username or PIN').count()).toBe(1);

    // Unlock: bob signs in, sees no Admin link, and is sent home from the admin screen.
    await bob.getByRole('button', { name: 'Unlock' }).click();
    const confirmUnlock = page.getByRole('alertdialog');
    await eventually(() => confirmUnlock.getByText('Are you sure you want to unlock this user account?').count()).toBe(1);
    await confirmUnlock.getByRole('button', { name: 'Unlock' }).click();
    await eventually(() => bob.getByRole('cell', { name: 'Active' }).count()).toBe(1);

    await bobBrowser.page.getByRole('button', { name: 'Sign In' }).click();
    await bobBrowser.page.waitForURL('**/dashboard');
    await eventually(() => bobBrowser.page.getByRole('heading', { level: 1, name: /, Bob Builder$/ }).count()).toBe(1);
    expect(await mainNav(bobBrowser.page).getByRole('link', { name: 'Admin' }).count()).toBe(0);
    expect(await bobBrowser.page.getByRole('heading', { name: 'Administration' }).count()).toBe(0);
    await bobBrowser.page.goto(`/crm/${speedy.subdomain}/admin`);
    await bobBrowser.page.waitForURL(`**/crm/${speedy.subdomain}/dashboard`);

    // Reset bob's PIN: his session ends, and the new PIN signs him in.
    await bob.getByRole('button', { name: 'Reset PIN' }).click();
    const resetDialog = page.getByRole('dialog', { name: 'Reset PIN for bob' });
    await resetDialog.getByLabel('New PIN').fill('8642');
    await resetDialog.getByRole('button', { name: 'Save PIN' }).click();
    await eventually(() => page.getByText('bob can sign in with the new PIN.', { exact: true }).count()).toBeGreaterThan(0);
    const reSignIn = await bobBrowser.page.evaluate(async (instance) => {
      const res = await fetch('/api/auth/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-crm-request': '1' },
        body: JSON.stringify({ username: 'bob', pin: '8642', instance }),
      });
      return res.status;
    }, speedy.subdomain);
    expect(reSignIn).toBe(200);

    // Delete, after a confirmation.
    await bob.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    // While a dialog is open the page behind it is hidden from assistive tech (and role queries).
    await eventually(() => page.getByRole('alertdialog').count()).toBe(0);
    await eventually(() => bob.count()).toBe(0);
    expect(await userRow(page, 'owner').count()).toBe(1);

    await bobBrowser.context.close();
    await admin.context.close();
  });

  test("another instance's session never sees this instance's screens", async () => {
    const { page, context } = await newPage(browser, { baseURL: server.url });
    await signIn(page, other.subdomain, other.admin.username, other.admin.pin);
    await page.waitForURL(`**/crm/${other.subdomain}/dashboard`);
    await page.goto(`/crm/${speedy.subdomain}/admin`);
    await page.waitForURL(`**/crm/${speedy.subdomain}`);
    await eventually(() => page.getByRole('heading', { name: 'SPEEDY CRM Login' }).count()).toBe(1);
    await eventually(() => page.getByText(/You are signed in to otherco Auto/).count()).toBe(1);
    // The legacy and subdomain paths lead to the signed-in instance's canonical pages.
    await page.goto('/pipeline');
    await page.waitForURL(`**/crm/${other.subdomain}/pipeline`);
    await page.goto(`/${other.subdomain}`);
    await page.waitForURL(`**/crm/${other.subdomain}/dashboard`);
    // Static pages are never taken for a subdomain.
    await page.goto('/settings');
    await eventually(() => page.getByRole('heading', { name: 'Settings' }).count()).toBe(1);
    await snap(page, 'settings');
    await page.getByLabel('Dark').check();
    await eventually(() => page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
    await page.getByLabel('Light').check();
    await eventually(() => page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(false);
    // Profile: change the own PIN; the current one is checked.
    await page.goto('/profile');
    await eventually(() => page.getByRole('heading', { name: 'Change PIN' }).count()).toBe(1);
    await page.getByLabel('Current PIN', { exact: true }).fill('1111');
    await page.getByLabel('New PIN', { exact: true }).fill('8888');
    await page.getByLabel('Confirm New PIN', { exact: true }).fill('8888');
    await page.getByRole('button', { name: 'Change PIN' }).click();
    await eventually(() => page.getByText('Current PIN is incorrect').count()).toBe(1);
    await page.getByLabel('Current PIN', { exact: true }).fill(other.admin.pin);
    await page.getByRole('button', { name: 'Change PIN' }).click();
    await eventually(() => page.getByText('PIN changed', { exact: true }).count()).toBe(1);
    await snap(page, 'profile');
    expect(await page.getByLabel('New PIN', { exact: true }).inputValue()).toBe('');
    await page.goto('/register');
    await eventually(() => page.getByRole('heading', { name: 'Need an account?' }).count()).toBe(1);
    await context.close();
  });

  test('/maven is the provider instance: its login leads to /maven/home with tiles', async () => {
    // The super admin gives the reserved instance its first admin (DECISIONS.md §3).
    const superAdmin = await signInSuperAdmin(server);
    const instances = await superAdmin.get('/api/crm-instances');
    const maven = instances.body.find((instance: { subdomain: string }) => instance.subdomain === 'maven');
    const added = await superAdmin.post(`/api/crm-instances/${maven.id}/users`, { username: 'mave', pin: '2468', role: 'admin' });
    expect(added.status).toBe(201);

    const { page, context } = await newPage(browser, { baseURL: server.url });
    await page.goto('/maven');
    await eventually(() => page.getByRole('heading', { name: 'MAVEN CRM Login' }).count()).toBe(1);
    await page.getByLabel('Username').fill('mave');
    await page.getByLabel('PIN', { exact: true }).fill('2468');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL('**/maven/home');
    await eventually(() => page.getByRole('heading', { level: 1, name: /, mave$/ }).count()).toBe(1);
    expect(await mainNav(page).getByRole('link').allInnerTexts()).toEqual(['Pipeline', 'Customers', 'Admin']);
    expect(await page.getByRole('link', { name: 'Calendar', exact: true }).getAttribute('href')).toBe('/maven/calendar');
    expect(await page.getByRole('heading', { name: 'Quick Stats' }).count()).toBe(1);
    await snap(page, 'maven-home');
    await mainNav(page).getByRole('link', { name: 'Admin' }).click();
    await page.waitForURL('**/maven/admin');
    await eventually(() => userRow(page, 'mave').count()).toBe(1);
    await eventually(() => mainNav(page).locator('[aria-current="page"]').innerText()).toBe('Admin');
    await context.close();
  });

  test('screenshots: dark desktop and phone', async () => {
    const dark = await newPage(browser, { baseURL: server.url, colorScheme: 'dark' });
    await signIn(dark.page, speedy.subdomain, speedy.admin.username, speedy.admin.pin);
    await dark.page.waitForURL('**/dashboard');
    await eventually(() => dark.page.getByRole('list', { name: 'Recent Activity' }).getByRole('listitem').count()).toBeGreaterThan(0);
    await snap(dark.page, 'instance-dashboard-dark');
    await dark.page.goto(`/crm/${speedy.subdomain}/admin`);
    await eventually(() => userRow(dark.page, 'owner').count()).toBe(1);
    await snap(dark.page, 'admin-desktop-dark');
    await dark.context.close();

    const phone = await newPage(browser, { baseURL: server.url, phone: true });
    await phone.page.goto(`/crm/${speedy.subdomain}`);
    await eventually(() => phone.page.getByRole('heading', { name: 'SPEEDY CRM Login' }).count()).toBe(1);
    await snap(phone.page, 'instance-login-phone');
    await signIn(phone.page, speedy.subdomain, speedy.admin.username, speedy.admin.pin);
    await phone.page.waitForURL('**/dashboard');
    // The navigation stays reachable on a 375 px phone.
    for (const name of ['Pipeline', 'Customers', 'Admin'])
      expect(await mainNav(phone.page).getByRole('link', { name }).isVisible(), name).toBe(true);
    await snap(phone.page, 'instance-dashboard-phone');
    await mainNav(phone.page).getByRole('link', { name: 'Admin' }).click();
    await eventually(() => phone.page.getByRole('heading', { name: 'User Management' }).count()).toBe(1);
    // Narrow screens get cards instead of the table.
    expect(await phone.page.getByRole('table').count()).toBe(0);
    await eventually(() => phone.page.getByRole('list', { name: 'Users' }).getByText('owner').count()).toBeGreaterThan(0);
    await snap(phone.page, 'admin-phone');
    await phone.page.getByRole('button', { name: 'Account menu' }).click();
    await phone.page.getByRole('menuitem', { name: 'Sign out' }).waitFor();
    await phone.page.waitForTimeout(300); // let the menu finish fading in
    await snap(phone.page, 'account-menu-phone');
    await phone.context.close();
  });
});
