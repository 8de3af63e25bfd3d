import type { Browser, Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { type ApiClient, signInSuperAdmin, signInUser, type TestServer } from '../../../backend/test/support/server.ts';
import {
  addUser,
  createShop,
  postOne,
  type Shop,
  signedInPage,
  SLOW,
  snapViewport,
  TEST_TIMEOUT,
  serverAndBrowserForFile,
  unique,
} from './support.ts';

// One server and one browser for the file; every test makes its own instance, records and browser context.
let server: TestServer;
let browser: Browser;

serverAndBrowserForFile((s, b) => ([server, browser] = [s, b]));

/**
 * Live updates: two people of one shop, each in their own browser, see each other's changes
 * without reloading (one Server-Sent Events stream per tab). No reload happens in these
 * tests: every change shown arrived through the stream.
 */

/** A shop with Tina (role user) beside the owner, and Dana Diesel's job; `withCalendar` switches the calendar on (off by default). */
async function shopWithTina(prefix: string, withCalendar = false): Promise<Shop & { tina: ApiClient; job: any }> {
  const shop = withCalendar ? await calendarShop(prefix) : await createShop(server, prefix);
  await addUser(shop.owner, { username: 'tina', displayName: 'Tina Tech', pin: '2222' });
  const tina = await signInUser(server, shop.subdomain, 'tina', '2222');
  const job = await postOne(shop.owner, `/api/${shop.subdomain}/pipeline`, {
    name: 'Dana Diesel',
    phone: '5559876543',
    part: 'Brake pads',
    makeModel: '2018 Toyota Camry',
    quote: '1250',
  });
  return { ...shop, tina, job };
}

/** A new shop with every area on, the calendar too, as the super admin creates it. */
async function calendarShop(prefix: string): Promise<Shop> {
  const subdomain = unique(prefix);
  const superAdmin = await signInSuperAdmin(server);
  const res = await superAdmin.post('/api/crm-instances', {
    name: subdomain.toUpperCase(),
    displayName: `${subdomain} Auto`,
    subdomain,
    features: { pipeline: true, customers: true, calendar: true, admin: true },
    adminUsername: 'owner',
    adminDisplayName: 'Owner',
    adminPin: '1234',
  });
  // Created but not yet projected answers 404 on a busy machine: sign-in then waits for it.
  if (res.status !== 201 && res.status !== 404) throw new Error(`instance creation failed: ${res.status} ${res.text}`);
  const deadline = Date.now() + SLOW;
  for (;;) {
    const owner = await signInUser(server, subdomain, 'owner', '1234').catch(() => null);
    if (owner) return { instance: { id: res.body?.id ?? '', subdomain, admin: { username: 'owner', pin: '1234' } }, subdomain, owner };
    if (Date.now() > deadline) throw new Error(`${subdomain}: the owner could not sign in`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Resolves once the tab's stream answers (call before the page loads): a change made before it would not be heard live. */
function streamOpened(page: Page): Promise<unknown> {
  return page.waitForResponse((response) => new URL(response.url()).pathname.endsWith('/live') && response.status() === 200, {
    timeout: SLOW,
  });
}

const row = (page: Page, name: string) => page.getByRole('row').filter({ has: page.getByRole('rowheader', { name, exact: true }) });
const boardCard = (page: Page, stage: string, name: string) =>
  page
    .getByRole('region', { name: 'Stage board' })
    .locator(`section[data-stage="${stage}"]`)
    .getByRole('listitem')
    .filter({ hasText: name });

describe('live updates', () => {
  test(
    "two browsers see each other's edits: the table, the board, the customers list and the audit log follow without a reload",
    async () => {
      const shop = await shopWithTina('live');
      const { page: owner } = await signedInPage(browser, shop.owner);
      const { page: tina } = await signedInPage(browser, shop.tina);
      const ownerStream = streamOpened(owner);
      const tinaStream = streamOpened(tina);
      await owner.goto(`/crm/${shop.subdomain}/pipeline?view=table`);
      await tina.goto(`/crm/${shop.subdomain}/pipeline?view=board`);
      await Promise.all([ownerStream, tinaStream]);
      await expect.poll(() => row(owner, 'Dana Diesel').count(), { timeout: SLOW }).toBe(1);
      await expect.poll(() => boardCard(tina, 'Quote', 'Dana Diesel').count(), { timeout: SLOW }).toBe(1);

      // The owner changes the stage in the table; Tina's board moves the card.
      await row(owner, 'Dana Diesel').getByLabel('Stage for Dana Diesel').selectOption('Parts In');
      await expect.poll(() => boardCard(tina, 'Parts In', 'Dana Diesel').count(), { timeout: SLOW }).toBe(1);
      await expect.poll(() => boardCard(tina, 'Quote', 'Dana Diesel').count()).toBe(0);

      // Tina moves it on the board (keyboard); the owner's table shows the new stage.
      await boardCard(tina, 'Parts In', 'Dana Diesel').getByRole('button', { name: 'Dana Diesel', exact: true }).focus();
      await tina.keyboard.press('Alt+ArrowRight');
      await expect
        .poll(() => row(owner, 'Dana Diesel').getByLabel('Stage for Dana Diesel').inputValue(), { timeout: SLOW })
        .toBe('Scheduled');

      // A job Tina adds appears in the owner's table.
      await tina.getByRole('button', { name: 'Add New Entry' }).click();
      const add = tina.getByRole('dialog', { name: 'Add New Entry' });
      await add.getByLabel('Name').fill('Evan Exhaust');
      await add.getByLabel('Part').fill('Muffler');
      await add.getByRole('button', { name: 'Add Entry' }).click();
      await expect.poll(() => add.count(), { timeout: SLOW }).toBe(0);
      await expect.poll(() => row(owner, 'Evan Exhaust').count(), { timeout: SLOW }).toBe(1);
      await expect.poll(() => owner.getByText(/^Showing 2 of 2 entries/).count()).toBe(1);

      // The owner's customers list and audit log follow Tina's changes too.
      let opened = streamOpened(owner);
      await owner.goto(`/crm/${shop.subdomain}/customers`);
      await expect.poll(() => owner.getByText('Dana Diesel').count(), { timeout: SLOW }).toBeGreaterThan(0);
      await opened;
      await postOne(shop.tina, `/api/${shop.subdomain}/customers`, { name: 'Fay Filter', phone: '5551112222' });
      await expect.poll(() => owner.getByText('Fay Filter').count(), { timeout: SLOW }).toBeGreaterThan(0);

      opened = streamOpened(owner);
      await owner.goto(`/crm/${shop.subdomain}/admin/audit`);
      await expect.poll(() => owner.getByText(/Evan Exhaust/).count(), { timeout: SLOW }).toBeGreaterThan(0);
      await opened;
      await postOne(shop.tina, `/api/${shop.subdomain}/customers`, { name: 'Gus Gasket' });
      await expect.poll(() => owner.getByText(/Gus Gasket/).count(), { timeout: SLOW }).toBeGreaterThan(0);
    },
    TEST_TIMEOUT,
  );

  test(
    'an open entry dialog whose job someone else changed says so, keeps what is typed, and loads the new version when asked',
    async () => {
      const shop = await shopWithTina('livedialog');
      const { page } = await signedInPage(browser, shop.owner);
      const opened = streamOpened(page);
      await page.goto(`/crm/${shop.subdomain}/pipeline?view=table`);
      await expect.poll(() => row(page, 'Dana Diesel').count(), { timeout: SLOW }).toBe(1);
      await opened;
      await row(page, 'Dana Diesel').getByRole('button', { name: 'Edit Dana Diesel' }).click();
      const dialog = page.getByRole('dialog', { name: 'Edit Dana Diesel' });
      await expect.poll(() => dialog.getByLabel('Phone').inputValue(), { timeout: SLOW }).toBe('555-987-6543');
      await dialog.getByLabel('Notes').fill('Customer waits in the lobby');

      // Tina changes the part meanwhile.
      const changed = await shop.tina.put(`/api/${shop.subdomain}/pipeline/${shop.job.id}`, { part: 'Rotors' });
      expect(changed.status).toBe(200);
      const notice = dialog.getByRole('status').filter({ hasText: 'Someone else changed this entry after you opened it.' });
      await expect.poll(() => notice.count(), { timeout: SLOW }).toBe(1);
      await expect.poll(() => notice.textContent()).toContain('Loading their version discards your unsaved edits.');
      // Nothing was poured over the form.
      await expect.poll(() => dialog.getByLabel('Part').inputValue()).toBe('Brake pads');
      await expect.poll(() => dialog.getByLabel('Notes').inputValue()).toBe('Customer waits in the lobby');
      await snapViewport(page, 'live-entry-dialog-newer-version');

      await notice.getByRole('button', { name: 'Load new version' }).click();
      await expect.poll(() => dialog.getByLabel('Part').inputValue()).toBe('Rotors');
      await expect.poll(() => notice.count()).toBe(0);
      await dialog.getByLabel('Notes').fill('Rotors and pads');
      await dialog.getByRole('button', { name: 'Save Changes' }).click();
      await expect.poll(() => dialog.count(), { timeout: SLOW }).toBe(0);
      const saved = (await shop.owner.get(`/api/${shop.subdomain}/pipeline/${shop.job.id}`)).body;
      expect(saved).toMatchObject({ part: 'Rotors', notes: 'Rotors and pads' });
    },
    TEST_TIMEOUT,
  );

  test(
    'the customer form says when the customer changed underneath, and the customer page follows',
    async () => {
      const shop = await shopWithTina('liveform');
      const customer = await postOne(shop.owner, `/api/${shop.subdomain}/customers`, { name: 'Hal Hose', phone: '5554443333' });
      const { page } = await signedInPage(browser, shop.owner, { colorScheme: 'dark' });
      let opened = streamOpened(page);
      await page.goto(`/crm/${shop.subdomain}/customers/${customer.id}/edit`);
      await expect.poll(() => page.getByLabel('Name').inputValue(), { timeout: SLOW }).toBe('Hal Hose');
      await opened;

      expect((await shop.tina.put(`/api/${shop.subdomain}/customers/${customer.id}`, { email: 'hal@example.com' })).status).toBe(200);
      const notice = page.getByRole('status').filter({ hasText: 'Someone else changed this customer after you opened it.' });
      await expect.poll(() => notice.count(), { timeout: SLOW }).toBe(1);
      await expect.poll(() => page.getByLabel('Email').inputValue()).toBe('');
      await snapViewport(page, 'live-customer-form-newer-version-dark');
      await notice.getByRole('button', { name: 'Load new version' }).click();
      await expect.poll(() => page.getByLabel('Email').inputValue()).toBe('hal@example.com');

      // The customer's page shows a change as it happens.
      opened = streamOpened(page);
      await page.goto(`/crm/${shop.subdomain}/customers/${customer.id}`);
      await expect.poll(() => page.getByText('hal@example.com').count(), { timeout: SLOW }).toBeGreaterThan(0);
      await opened;
      expect((await shop.tina.put(`/api/${shop.subdomain}/customers/${customer.id}`, { address: '12 Engine Street' })).status).toBe(200);
      await expect.poll(() => page.getByText('12 Engine Street').count(), { timeout: SLOW }).toBeGreaterThan(0);
    },
    TEST_TIMEOUT,
  );
  test(
    "the dashboard's recent activity and the calendar follow another user's new job",
    async () => {
      const shop = await shopWithTina('livedash', true);
      const { page: dashboard } = await signedInPage(browser, shop.tina);
      let opened = streamOpened(dashboard);
      await dashboard.goto(`/crm/${shop.subdomain}/dashboard`);
      // The dashboard names jobs only in its Recent Activity.
      const activity = dashboard.locator('main');
      await expect.poll(() => activity.getByText(/Dana Diesel/).count(), { timeout: SLOW }).toBeGreaterThan(0);
      await opened;
      await postOne(shop.owner, `/api/${shop.subdomain}/pipeline`, { name: 'Ivy Ignition', part: 'Spark plugs' });
      await expect.poll(() => activity.getByText(/Ivy Ignition/).count(), { timeout: SLOW }).toBeGreaterThan(0);

      const { page: calendar } = await signedInPage(browser, shop.tina);
      opened = streamOpened(calendar);
      await calendar.goto(`/crm/${shop.subdomain}/calendar`);
      await opened;
      await expect.poll(() => calendar.getByRole('heading', { name: 'Calendar', level: 1 }).count(), { timeout: SLOW }).toBe(1);
      // An appointment at the start of this hour: now is in the calendar's opening view, whatever its mode and time zone.
      const soon = new Date();
      soon.setUTCMinutes(0, 0, 0);
      await postOne(shop.owner, `/api/${shop.subdomain}/pipeline`, { name: 'Jo Jumper', part: 'Battery', appointment: soon.toISOString() });
      await expect.poll(() => calendar.getByText(/Jo Jumper/).count(), { timeout: SLOW }).toBeGreaterThan(0);
    },
    TEST_TIMEOUT,
  );
});
