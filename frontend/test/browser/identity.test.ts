import type { Browser, Locator, Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { ApiClient, signInUser, type TestServer } from '../../../backend/test/support/server.ts';
import {
  addMavenUser,
  addUser,
  createShop,
  newPage,
  serverAndBrowserForFile,
  type Shop,
  signedInPage,
  SLOW,
  snap,
  TEST_TIMEOUT,
  toastTexts,
  unique,
} from './support.ts';

// One server and one browser for the file; every test makes its own instance, users and browser context.
let server: TestServer;
let browser: Browser;

serverAndBrowserForFile((s, b) => ([server, browser] = [s, b]));

/** Fills in and sends the instance's sign-in form. */
async function signInWithForm(page: Page, slug: string, username: string, pin: string): Promise<void> {
  await page.goto(`/crm/${slug}`);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('PIN', { exact: true }).fill(pin);
  await page.getByRole('button', { name: 'Sign In' }).click();
}

/** Sign-ins and account changes hash PINs and wait for the projection: allow them longer. */
const eventually = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: SLOW });
const pathOf = (page: Page) => new URL(page.url()).pathname;
const mainNav = (page: Page) => page.getByRole('navigation', { name: 'Main' });
/** The heading of an instance's login page (createTestInstance names an instance by its subdomain in capitals). */
const loginHeading = (page: Page, shop: Shop) => page.getByRole('heading', { name: `${shop.subdomain.toUpperCase()} CRM Login` });
/** The users table's row of one username (the table shows on wide screens). */
const userRow = (page: Page, username: string): Locator =>
  page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: new RegExp(`^${username}( You)?$`) }) });

/** A shop whose owner is on the admin screen, with Bob (role user, PIN 5678) in the list. */
async function adminWithBob(prefix: string, bob: { isLocked?: boolean } = {}) {
  const shop = await createShop(server, prefix);
  const bobId = await addUser(shop.owner, { username: 'bob', displayName: 'Bob Builder', pin: '5678' });
  if (bob.isLocked) expect((await shop.owner.patch(`/api/admin/users/${bobId}/lock`, { isLocked: true })).status).toBe(200);
  const { page } = await signedInPage(browser, shop.owner);
  await page.goto(`/crm/${shop.subdomain}/admin`);
  const row = userRow(page, 'bob');
  await eventually(() => row.count()).toBe(1);
  return { shop, page, bob: row };
}

describe('instance sign-in and sessions', () => {
  test(
    'a protected page without a session leads to the instance login, whose form signs in to the dashboard',
    async () => {
      const shop = await createShop(server, 'speedy');
      const { page } = await newPage(browser, { baseURL: server.url });
      await page.goto(`/crm/${shop.subdomain}/dashboard`);
      await page.waitForURL(`**/crm/${shop.subdomain}`);
      await eventually(() => loginHeading(page, shop).count()).toBe(1);
      // Staff stay in their CRM: the way on from its login is an account, not the provider's home.
      await expect
        .poll(() => page.getByRole('link', { name: 'Need an account?' }).getAttribute('href'))
        .toBe(`/register?instance=${shop.subdomain}`);
      await expect.poll(() => page.getByRole('link', { name: 'Back to Home' }).count()).toBe(0);
      // Signed-out visitors see Login and Register in the header.
      await expect.poll(() => page.getByRole('link', { name: 'Register' }).count()).toBe(1);
      await page.getByLabel('Username').fill(shop.instance.admin.username);
      await page.getByLabel('PIN', { exact: true }).fill(shop.instance.admin.pin);
      await snap(page, 'instance-login');
      await page.getByRole('button', { name: 'Sign In' }).click();
      await page.waitForURL(`**/crm/${shop.subdomain}/dashboard`);
      await eventually(() => page.getByRole('heading', { level: 1, name: /^Good (morning|afternoon|evening), Owner$/ }).count()).toBe(1);
    },
    TEST_TIMEOUT,
  );

  test(
    'the dashboard greets the user, counts customers and open jobs, and shows its cards, the navigation and recent activity',
    async () => {
      const shop = await createShop(server, 'speedy');
      const { page } = await signedInPage(browser, shop.owner);
      await page.goto(`/crm/${shop.subdomain}/dashboard`);
      await eventually(() => page.getByRole('heading', { level: 1, name: /^Good (morning|afternoon|evening), Owner$/ }).count()).toBe(1);
      await expect.poll(() => page.getByText('Manage your customer relationships and pipeline efficiently.').count()).toBe(1);
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
        await expect.poll(() => page.getByRole('heading', { name: card }).count(), { message: card }).toBe(1);
      }
      // Calendar is off by default: its card says Coming Soon and its nav link is left out.
      await expect.poll(() => page.getByText('Coming Soon').count()).toBeGreaterThan(0);
      const nav = mainNav(page);
      await expect
        .poll(() => nav.getByRole('link').allInnerTexts())
        .toEqual(['Pipeline', 'Customers', 'Service Requests', 'Insights', 'Takings', 'Shop', 'Messages', 'Admin']);
      // The current page is inert.
      await expect.poll(() => nav.locator('[aria-current="page"]').innerText()).toBe('Home');
      // Recent Activity is real: the instance's creation is in it.
      await eventually(() => page.getByText(/Created the CRM instance/).count()).toBeGreaterThan(0);
      await snap(page, 'instance-dashboard');
    },
    TEST_TIMEOUT,
  );

  test(
    'the navigation marks the current page; the account menu leads to the profile and signs out, ending the session on the server',
    async () => {
      const shop = await createShop(server, 'speedy');
      const { page } = await signedInPage(browser, shop.owner);
      await page.goto(`/crm/${shop.subdomain}/dashboard`);
      const nav = mainNav(page);
      await nav.getByRole('link', { name: 'Customers' }).click();
      await page.waitForURL(`**/crm/${shop.subdomain}/customers`);
      await eventually(() => nav.locator('[aria-current="page"]').innerText()).toBe('Customers');

      // The account menu.
      await page.getByRole('button', { name: 'Account menu' }).click();
      await eventually(() => page.getByText(/Signed in as\s*owner/).count()).toBe(1);
      await page.getByRole('menuitem', { name: 'Your Profile' }).click();
      await page.waitForURL('**/profile');
      await eventually(() => page.getByRole('heading', { name: 'Your Profile' }).count()).toBe(1);

      await page.getByRole('button', { name: 'Account menu' }).click();
      await page.getByRole('menuitem', { name: 'Sign out' }).click();
      await page.waitForURL(`**/crm/${shop.subdomain}`);
      await eventually(() => loginHeading(page, shop).count()).toBe(1);
      await expect.poll(() => mainNav(page).count()).toBe(0);
      // The session is gone on the server too (the API client shared it).
      await page.goto(`/crm/${shop.subdomain}/admin`);
      await page.waitForURL(`**/crm/${shop.subdomain}`);
      await expect.poll(async () => (await shop.owner.get('/api/user/current')).status).toBe(401);
    },
    TEST_TIMEOUT,
  );

  test(
    'a wrong PIN shows "Invalid username or PIN"; the client checks the rules first',
    async () => {
      const shop = await createShop(server, 'speedy');
      const { page } = await newPage(browser, { baseURL: server.url });
      await signInWithForm(page, shop.subdomain, 'ow', '12');
      await eventually(() => page.getByText('Username must be at least 3 characters').count()).toBe(1);
      await expect.poll(() => page.getByText('PIN must be exactly 4 digits').count()).toBe(1);

      await signInWithForm(page, shop.subdomain, shop.instance.admin.username, '0000');
      await eventually(() => page.getByText('Invalid username or PIN').count()).toBe(1);
      await expect.poll(() => pathOf(page)).toBe(`/crm/${shop.subdomain}`);
    },
    TEST_TIMEOUT,
  );

  test('an unknown instance is a clear "No such CRM" page, not a login form', async () => {
    const { page } = await newPage(browser, { baseURL: server.url });
    await page.goto(`/crm/${unique('nosuchshop')}`);
    await eventually(() => page.getByRole('heading', { name: 'No such CRM' }).count()).toBe(1);
    await expect.poll(() => page.getByLabel('Username').count()).toBe(0);
  });

  test(
    "the subdomain family's login (/{instance}/login) leads to the signed-in instance's pipeline",
    async () => {
      const shop = await createShop(server, 'speedy');
      const { page } = await newPage(browser, { baseURL: server.url });
      // From there a sign-in leads to /pipeline, which ends on the signed-in instance's pipeline.
      await page.goto(`/${shop.subdomain}/login`);
      await eventually(() => loginHeading(page, shop).count()).toBe(1);
      await page.getByLabel('Username').fill(shop.instance.admin.username);
      await page.getByLabel('PIN', { exact: true }).fill(shop.instance.admin.pin);
      await page.getByRole('button', { name: 'Sign In' }).click();
      await page.waitForURL(`**/crm/${shop.subdomain}/pipeline`);
      await eventually(() => page.getByRole('heading', { level: 1, name: 'Pipeline' }).count()).toBe(1);
    },
    TEST_TIMEOUT,
  );

  test(
    "another instance's session never sees this instance's screens; legacy and subdomain paths lead to its own",
    async () => {
      const [speedy, other] = await Promise.all([
        createShop(server, 'speedy'),
        createShop(server, 'otherco', { username: 'boss', pin: '9999' }),
      ]);
      const { page } = await newPage(browser, { baseURL: server.url });
      await signInWithForm(page, other.subdomain, 'boss', '9999');
      await page.waitForURL(`**/crm/${other.subdomain}/dashboard`);
      await page.goto(`/crm/${speedy.subdomain}/admin`);
      await page.waitForURL(`**/crm/${speedy.subdomain}`);
      await eventually(() => loginHeading(page, speedy).count()).toBe(1);
      await eventually(() => page.getByText(new RegExp(`You are signed in to ${other.subdomain} Auto`)).count()).toBe(1);
      // The legacy and subdomain paths lead to the signed-in instance's canonical pages.
      await page.goto('/pipeline');
      await page.waitForURL(`**/crm/${other.subdomain}/pipeline`);
      await page.goto(`/${other.subdomain}`);
      await page.waitForURL(`**/crm/${other.subdomain}/dashboard`);
    },
    TEST_TIMEOUT,
  );

  test(
    'static pages are never taken for a subdomain: settings switch the theme, /register explains how to get an account',
    async () => {
      const shop = await createShop(server, 'otherco');
      const { page } = await signedInPage(browser, shop.owner);
      await page.goto('/settings');
      await eventually(() => page.getByRole('heading', { name: 'Settings' }).count()).toBe(1);
      await snap(page, 'settings');
      await page.getByLabel('Dark').check();
      await eventually(() => page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(true);
      await page.getByLabel('Light').check();
      await eventually(() => page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(false);
      await page.goto('/register');
      await eventually(() => page.getByRole('heading', { name: 'Need an account?' }).count()).toBe(1);
    },
    TEST_TIMEOUT,
  );

  test(
    'the profile changes the own PIN; the current one is checked',
    async () => {
      const shop = await createShop(server, 'otherco', { username: 'boss', pin: '9999' });
      const { page } = await signedInPage(browser, shop.owner);
      await page.goto('/profile');
      await eventually(() => page.getByRole('heading', { name: 'Change PIN' }).count()).toBe(1);
      await page.getByLabel('Current PIN', { exact: true }).fill('1111');
      await page.getByLabel('New PIN', { exact: true }).fill('8888');
      await page.getByLabel('Confirm New PIN', { exact: true }).fill('8888');
      await page.getByRole('button', { name: 'Change PIN' }).click();
      await eventually(() => page.getByText('Current PIN is incorrect').count()).toBe(1);
      await page.getByLabel('Current PIN', { exact: true }).fill('9999');
      await page.getByRole('button', { name: 'Change PIN' }).click();
      await eventually(() => toastTexts(page)).toContain('PIN changed');
      await snap(page, 'profile');
      await expect.poll(() => page.getByLabel('New PIN', { exact: true }).inputValue()).toBe('');
      // The new PIN is the one that signs in now.
      const signIn = (pin: string) =>
        new ApiClient(server.url).post('/api/auth/login', { username: 'boss', pin, instance: shop.subdomain });
      await expect.poll(async () => (await signIn('8888')).status, { timeout: SLOW }).toBe(200);
      await expect.poll(async () => (await signIn('9999')).status, { timeout: SLOW }).toBe(401);
    },
    TEST_TIMEOUT,
  );

  test(
    '/maven is the provider instance: its login leads to /maven/home with tiles',
    async () => {
      // The super admin gives the reserved instance an admin: one of this test's own.
      const username = unique('mave');
      await addMavenUser(server, { username, pin: '2468' });

      const { page } = await newPage(browser, { baseURL: server.url });
      await page.goto('/maven');
      await eventually(() => page.getByRole('heading', { name: 'MAVEN CRM Login' }).count()).toBe(1);
      await page.getByLabel('Username').fill(username);
      await page.getByLabel('PIN', { exact: true }).fill('2468');
      await page.getByRole('button', { name: 'Sign In' }).click();
      await page.waitForURL('**/maven/home');
      await eventually(() => page.getByRole('heading', { level: 1, name: new RegExp(`, ${username}$`) }).count()).toBe(1);
      await expect
        .poll(() => mainNav(page).getByRole('link').allInnerTexts())
        .toEqual(['Pipeline', 'Customers', 'Calendar', 'Service Requests', 'Insights', 'Admin']);
      await expect
        .poll(() => mainNav(page).getByRole('link', { name: 'Calendar', exact: true }).getAttribute('href'))
        .toBe('/maven/calendar');
      await expect.poll(() => page.getByRole('heading', { name: 'Quick Stats' }).count()).toBe(1);
      await snap(page, 'maven-home');
      await mainNav(page).getByRole('link', { name: 'Admin' }).click();
      await page.waitForURL('**/maven/admin');
      await eventually(() => userRow(page, username).count()).toBe(1);
      await eventually(() => mainNav(page).locator('[aria-current="page"]').innerText()).toBe('Admin');
    },
    TEST_TIMEOUT,
  );

  test(
    'screenshots: the dashboard and the admin screen, dark',
    async () => {
      const shop = await createShop(server, 'speedy');
      const { page } = await signedInPage(browser, shop.owner, { colorScheme: 'dark' });
      await page.goto(`/crm/${shop.subdomain}/dashboard`);
      await eventually(() => page.getByRole('list', { name: 'Recent Activity' }).getByRole('listitem').count()).toBeGreaterThan(0);
      await snap(page, 'instance-dashboard-dark');
      await page.goto(`/crm/${shop.subdomain}/admin`);
      await eventually(() => userRow(page, 'owner').count()).toBe(1);
      await snap(page, 'admin-desktop-dark');
    },
    TEST_TIMEOUT,
  );

  test(
    'on a phone: the login, the navigation stays reachable, the admin screen has cards, the account menu',
    async () => {
      const shop = await createShop(server, 'speedy');
      const { page } = await newPage(browser, { baseURL: server.url, phone: true });
      await page.goto(`/crm/${shop.subdomain}`);
      await eventually(() => loginHeading(page, shop).count()).toBe(1);
      await snap(page, 'instance-login-phone');
      await signInWithForm(page, shop.subdomain, shop.instance.admin.username, shop.instance.admin.pin);
      await page.waitForURL('**/dashboard');
      // The navigation stays reachable on a 375 px phone.
      for (const name of ['Pipeline', 'Customers', 'Admin']) {
        await expect.poll(() => mainNav(page).getByRole('link', { name }).isVisible(), { message: name }).toBe(true);
      }
      await snap(page, 'instance-dashboard-phone');
      await mainNav(page).getByRole('link', { name: 'Admin' }).click();
      await eventually(() => page.getByRole('heading', { name: 'User Management' }).count()).toBe(1);
      // Narrow screens get cards instead of the table.
      await eventually(() => page.getByRole('list', { name: 'Users' }).getByText('owner').count()).toBeGreaterThan(0);
      await expect.poll(() => page.getByRole('table').count()).toBe(0);
      await snap(page, 'admin-phone');
      await page.getByRole('button', { name: 'Account menu' }).click();
      await page.getByRole('menuitem', { name: 'Sign out' }).waitFor();
      await page.waitForTimeout(300); // let the menu finish fading in
      await snap(page, 'account-menu-phone');
    },
    TEST_TIMEOUT,
  );
});

describe('user administration', () => {
  test(
    "the admin dashboard: its sections, the audit log link, and the admin's own row that cannot be changed",
    async () => {
      const shop = await createShop(server, 'speedy');
      const { page } = await signedInPage(browser, shop.owner);
      await page.goto(`/crm/${shop.subdomain}/dashboard`);
      await mainNav(page).getByRole('link', { name: 'Admin' }).click();
      await page.waitForURL(`**/crm/${shop.subdomain}/admin`);
      await eventually(() => page.getByRole('heading', { name: 'Admin Dashboard' }).count()).toBe(1);
      await expect.poll(() => page.getByRole('heading', { name: 'User Management' }).count()).toBe(1);
      await expect.poll(() => page.getByRole('heading', { name: 'Customer Data Security' }).count()).toBe(1);
      await expect
        .poll(() => page.getByRole('link', { name: 'View Audit Log' }).getAttribute('href'))
        .toBe(`/crm/${shop.subdomain}/admin/audit`);
      // The admin's own row cannot be changed: it offers no buttons, says why, and leads to the profile's PIN change.
      const own = userRow(page, 'owner');
      await eventually(() => own.count()).toBe(1);
      await expect.poll(() => own.textContent()).toContain('You cannot change, lock or delete your own account.');
      await expect.poll(() => own.getByRole('button').count()).toBe(0);
      await own.getByRole('link', { name: 'Change your PIN' }).click();
      await expect.poll(() => new URL(page.url()).pathname, { timeout: SLOW }).toBe('/profile');
    },
    TEST_TIMEOUT,
  );

  test(
    'the admin creates a user: the PIN rule first, then the user joins the list as an active User',
    async () => {
      const shop = await createShop(server, 'speedy');
      const { page } = await signedInPage(browser, shop.owner);
      await page.goto(`/crm/${shop.subdomain}/admin`);
      await eventually(() => userRow(page, 'owner').count()).toBe(1);
      await page.getByRole('button', { name: 'Add New User' }).click();
      const dialog = page.getByRole('dialog', { name: 'Create New User' });
      await dialog.getByLabel('Username').fill('bob');
      await dialog.getByLabel(/Display Name/).fill('Bob Builder');
      await dialog.getByLabel('PIN', { exact: true }).fill('56');
      await dialog.getByRole('button', { name: 'Create User' }).click();
      await eventually(() => dialog.getByText('PIN must be exactly 4 digits', { exact: true }).count()).toBe(1);
      await dialog.getByLabel('PIN', { exact: true }).fill('5678');
      await expect.poll(() => dialog.getByRole('combobox', { name: 'Role' }).innerText()).toBe('User');
      await snap(page, 'admin-create-user');
      await dialog.getByRole('button', { name: 'Create User' }).click();
      await eventually(() => dialog.count()).toBe(0);
      const bob = userRow(page, 'bob');
      await eventually(() => bob.count()).toBe(1);
      await expect
        .poll(() => bob.getByRole('cell').allInnerTexts())
        .toEqual(expect.arrayContaining(['Bob Builder', 'User\nRead, write', 'Active']));
    },
    TEST_TIMEOUT,
  );

  test(
    "a taken username keeps the create dialog open with the server's message",
    async () => {
      const { page } = await adminWithBob('speedy');
      await page.getByRole('button', { name: 'Add New User' }).click();
      const dialog = page.getByRole('dialog', { name: 'Create New User' });
      await dialog.getByLabel('Username').fill('bob');
      await dialog.getByLabel('PIN', { exact: true }).fill('1111');
      await dialog.getByRole('button', { name: 'Create User' }).click();
      await eventually(() => dialog.getByRole('alert').innerText()).toMatch(/\S/);
      await expect.poll(() => dialog.count()).toBe(1);
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await expect.poll(() => dialog.count()).toBe(0);
    },
    TEST_TIMEOUT,
  );

  test(
    'role changes need no confirmation: Make Admin, then Make User',
    async () => {
      const { bob } = await adminWithBob('speedy');
      await bob.getByRole('button', { name: 'Make Admin' }).click();
      await eventually(() => bob.getByRole('button', { name: 'Make User' }).count()).toBe(1);
      await expect.poll(() => bob.getByRole('cell', { name: /^Admin\b/ }).count()).toBe(1);
      await bob.getByRole('button', { name: 'Make User' }).click();
      await eventually(() => bob.getByRole('button', { name: 'Make Admin' }).count()).toBe(1);
    },
    TEST_TIMEOUT,
  );

  test(
    'permissions: the admin gives a user delete rights',
    async () => {
      const { page, bob } = await adminWithBob('speedy');
      await bob.getByRole('button', { name: 'Permissions' }).click();
      const permissions = page.getByRole('dialog', { name: 'Permissions for bob' });
      await expect.poll(() => permissions.getByLabel('Can read').isChecked()).toBe(true);
      await expect.poll(() => permissions.getByLabel('Can delete').isChecked()).toBe(false);
      await permissions.getByLabel('Can delete').check();
      await permissions.getByRole('button', { name: 'Save Permissions' }).click();
      await eventually(() => permissions.count()).toBe(0);
      await eventually(() => toastTexts(page)).toContain('Permissions updated');
    },
    TEST_TIMEOUT,
  );

  test(
    'locking asks for a confirmation; a locked user cannot sign in',
    async () => {
      const { shop, page, bob } = await adminWithBob('speedy');
      // Bob is at work in a browser of his own when the admin locks him.
      const bobAtWork = await newPage(browser, { baseURL: server.url });
      await signInWithForm(bobAtWork.page, shop.subdomain, 'bob', '5678');
      await expect.poll(() => pathOf(bobAtWork.page), { timeout: SLOW }).not.toBe(`/crm/${shop.subdomain}`);
      await bob.getByRole('button', { name: 'Lock' }).click();
      const confirmLock = page.getByRole('alertdialog');
      await eventually(() => confirmLock.getByText('Are you sure you want to lock this user account?').count()).toBe(1);
      await confirmLock.getByRole('button', { name: 'Lock' }).click();
      await eventually(() => page.getByText('User locked', { exact: true }).count()).toBeGreaterThan(0);
      await eventually(() => bob.getByRole('cell', { name: 'Locked' }).count()).toBe(1);
      await snap(page, 'admin-desktop-light');
      // His screen goes to the sign-in page and says why.
      await eventually(() =>
        bobAtWork.page.getByText('You were signed out because your account was locked. Ask an admin of your shop to unlock it.').count(),
      ).toBe(1);
      await expect.poll(() => pathOf(bobAtWork.page)).toBe(`/crm/${shop.subdomain}`);

      // Bob, in a browser of his own, cannot sign in: with the right PIN he is told why.
      const bobBrowser = await newPage(browser, { baseURL: server.url });
      await signInWithForm(bobBrowser.page, shop.subdomain, 'bob', '5678');
      await eventually(() => bobBrowser.page.getByText("This account is locked. Ask your shop's admin to unlock it.").count()).toBe(1);
      await expect.poll(() => pathOf(bobBrowser.page)).toBe(`/crm/${shop.subdomain}`);
    },
    TEST_TIMEOUT,
  );

  test(
    'unlocking asks for a confirmation; the user signs in, sees no Admin link, and is sent home from the admin screen',
    async () => {
      const { shop, page, bob } = await adminWithBob('speedy', { isLocked: true });
      await eventually(() => bob.getByRole('cell', { name: 'Locked' }).count()).toBe(1);
      await bob.getByRole('button', { name: 'Unlock' }).click();
      const confirmUnlock = page.getByRole('alertdialog');
      await eventually(() => confirmUnlock.getByText('Are you sure you want to unlock this user account?').count()).toBe(1);
      await confirmUnlock.getByRole('button', { name: 'Unlock' }).click();
      await eventually(() => page.getByText('User unlocked', { exact: true }).count()).toBeGreaterThan(0);
      await eventually(() => bob.getByRole('cell', { name: 'Active' }).count()).toBe(1);

      const bobBrowser = await newPage(browser, { baseURL: server.url });
      await signInWithForm(bobBrowser.page, shop.subdomain, 'bob', '5678');
      await bobBrowser.page.waitForURL('**/dashboard');
      await eventually(() => bobBrowser.page.getByRole('heading', { level: 1, name: /, Bob Builder$/ }).count()).toBe(1);
      await expect.poll(() => mainNav(bobBrowser.page).getByRole('link', { name: 'Pipeline' }).count()).toBe(1);
      await expect.poll(() => mainNav(bobBrowser.page).getByRole('link', { name: 'Admin' }).count()).toBe(0);
      await expect.poll(() => bobBrowser.page.getByRole('heading', { name: 'Administration' }).count()).toBe(0);
      await bobBrowser.page.goto(`/crm/${shop.subdomain}/admin`);
      await bobBrowser.page.waitForURL(`**/crm/${shop.subdomain}/dashboard`);
    },
    TEST_TIMEOUT,
  );

  test(
    "resetting a user's PIN: the new PIN signs in, the old one no longer does",
    async () => {
      const { shop, page, bob } = await adminWithBob('speedy');
      // Bob is signed in somewhere while it happens.
      await signInUser(server, shop.subdomain, 'bob', '5678');
      await bob.getByRole('button', { name: 'Reset PIN' }).click();
      const resetDialog = page.getByRole('dialog', { name: 'Reset PIN for bob' });
      await resetDialog.getByLabel('New PIN').fill('8642');
      await resetDialog.getByRole('button', { name: 'Save PIN' }).click();
      await eventually(() => page.getByText('bob can sign in with the new PIN.', { exact: true }).count()).toBeGreaterThan(0);
      const signIn = (pin: string) => new ApiClient(server.url).post('/api/auth/login', { username: 'bob', pin, instance: shop.subdomain });
      await expect.poll(async () => (await signIn('8642')).status, { timeout: SLOW }).toBe(200);
      await expect.poll(async () => (await signIn('5678')).status, { timeout: SLOW }).toBe(401);
    },
    TEST_TIMEOUT,
  );

  test(
    'deleting a user asks for a confirmation; the user leaves the list',
    async () => {
      const { page, bob } = await adminWithBob('speedy');
      await bob.getByRole('button', { name: 'Delete' }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
      // While a dialog is open the page behind it is hidden from assistive tech (and role queries).
      await eventually(() => page.getByRole('alertdialog').count()).toBe(0);
      await eventually(() => bob.count()).toBe(0);
      await expect.poll(() => userRow(page, 'owner').count()).toBe(1);
    },
    TEST_TIMEOUT,
  );
});
