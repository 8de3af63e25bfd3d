import { mkdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  type ApiClient,
  createTestInstance,
  signInSuperAdmin,
  signInUser,
  startTestServer,
  type TestInstance,
  type TestServer,
} from '../../../backend/test/support/server.ts';
import { launchBrowser, newPage, snap } from './support.ts';

let server: TestServer;
let browser: Browser;
let shop: TestInstance;
let owner: ApiClient;

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  // The super admin creates the instance and its first admin (Owner); the admin adds a tech.
  shop = await createTestInstance(server, 'pipeshop', { username: 'owner', pin: '1234' });
  owner = await signInUser(server, shop.subdomain, 'owner', '1234');
  const tech = await owner.post('/api/admin/users', { username: 'tina', displayName: 'Tina Tech', pin: '2222', role: 'user' });
  expect(tech.status, tech.text).toBe(201);
  const customer = await owner.post(`/api/${shop.subdomain}/customers`, {
    name: 'Dana Diesel',
    phone: '5559876543',
    vehicles: ['2018 Toyota Camry', '2020 Ford F-150', '2015 Honda Civic'],
  });
  expect(customer.status, customer.text).toBe(201);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** Like snap(), but only what is on screen: a dialog over a long list. */
async function snapViewport(page: Page, name: string): Promise<void> {
  const dir = path.resolve('screenshots');
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${name}.png`) });
}

const pipelinePath = () => `/crm/${shop.subdomain}/pipeline`;

/** Calls the API from the page, as the app does (cookies, the cross-site guard header). */
async function api<T = any>(
  page: Page,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: T }> {
  return await page.evaluate(
    async ({ method, path, body, headers }) => {
      const response = await fetch(path, {
        method,
        headers: { 'Content-Type': 'application/json', ...(method === 'GET' ? {} : { 'X-CRM-Request': '1' }), ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : null };
    },
    { method, path, body, headers },
  );
}

/** Signs in through the API (the sign-in screen has its own test). */
async function signIn(page: Page, user = shop.admin): Promise<void> {
  await page.goto(`/crm/${shop.subdomain}`);
  const res = await api(page, 'POST', '/api/auth/login', { ...user, instance: shop.subdomain });
  expect(res.status).toBe(200);
}

async function openPipeline(page: Page): Promise<void> {
  await page.goto(pipelinePath());
  await expect.poll(() => page.getByRole('heading', { name: 'Pipeline', level: 1 }).count()).toBe(1);
  await expect.poll(() => page.getByText(/^Showing \d+ of \d+ entries/).count()).toBe(1);
}

/** Chooses `option` in the Radix select opened by `trigger`. */
async function choose(page: Page, trigger: Locator, option: string): Promise<void> {
  await trigger.click();
  await page.getByRole('option', { name: option, exact: true }).click();
  await expect.poll(() => page.getByRole('listbox').count()).toBe(0);
}

const row = (page: Page, name: string) => page.getByRole('row').filter({ has: page.getByRole('rowheader', { name, exact: true }) });

async function jobsNamed(page: Page, name: string): Promise<any[]> {
  const res = await api(page, 'GET', `/api/${shop.subdomain}/pipeline?q=${encodeURIComponent(name)}&canceled=include`);
  return res.body.items;
}

// Toast and live-region texts are counted with toBeGreaterThan(0): Radix also reads them out through a hidden copy.
describe('pipeline', () => {
  test('add with the customer autocomplete, change stage inline, edit, history with values, a past version, cancel and reopen, delete', async () => {
    const { page, context } = await newPage(browser, { baseURL: server.url });
    await signIn(page);
    await openPipeline(page);
    expect(await page.getByText('Manage your parts quotes and customer pipeline.').count()).toBe(1);
    await expect.poll(() => page.getByText('No entries found', { exact: true }).count()).toBe(1);

    // ---- add ----
    await page.getByRole('button', { name: 'Add New Entry' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add New Entry' });
    await expect.poll(() => dialog.count()).toBe(1);
    expect(await dialog.getByLabel('Job Number').getAttribute('placeholder')).toBe('Auto-generated');
    // CSR defaults to the signed-in user (display name), Date Created is read-only.
    await expect.poll(() => dialog.getByLabel('CSR').textContent()).toBe('Owner');
    expect(await dialog.getByLabel('Date Created').getAttribute('readonly')).not.toBeNull();

    // The autocomplete: up to two vehicle badges, then +N more; choosing links and fills phone and vehicle.
    await dialog.getByLabel('Name').pressSequentially('Dan');
    const suggestion = page.getByRole('option', { name: /Dana Diesel/ });
    await expect.poll(() => suggestion.count()).toBe(1);
    expect(await suggestion.getByText('2018 Toyota Camry').count()).toBe(1);
    expect(await suggestion.getByText('2020 Ford F-150').count()).toBe(1);
    expect(await suggestion.getByText('2015 Honda Civic').count()).toBe(0);
    expect(await suggestion.getByText('+1 more').count()).toBe(1);
    await snapViewport(page, 'pipeline-dialog-autocomplete');
    await suggestion.click();
    await expect.poll(() => dialog.getByLabel('Name').inputValue()).toBe('Dana Diesel');
    await expect.poll(() => dialog.getByLabel('Phone').inputValue()).toBe('555-987-6543');
    expect(await dialog.getByLabel('Vehicle').inputValue()).toBe('2018 Toyota Camry');
    expect(await dialog.getByText(/Linked to customer #\d+ Dana Diesel/).count()).toBe(1);
    await expect.poll(() => page.getByRole('listbox').count()).toBe(0);

    await dialog.getByLabel('Part').fill('Brake pads');
    await dialog.getByLabel('VIN').pressSequentially('1hgcm82633a');
    expect(await dialog.getByLabel('VIN').inputValue()).toBe('1HGCM82633A');
    await dialog.getByLabel('Quote').pressSequentially('1,2a50');
    expect(await dialog.getByLabel('Quote').inputValue()).toBe('1250');
    expect(await dialog.getByLabel('Appointment').getAttribute('step')).toBe('900');
    await dialog.getByLabel('Appointment').fill('2025-03-01T09:15');
    await choose(page, dialog.getByLabel('Job Type'), 'Mobile');
    await choose(page, dialog.getByLabel('Duration'), '1 h 30 min');
    await choose(page, dialog.getByLabel('Tech'), 'Tina Tech');
    await dialog.getByLabel('Notes').fill('Front axle only');
    await snapViewport(page, 'pipeline-dialog-add');
    await dialog.getByRole('button', { name: 'Add Entry' }).click();
    await expect.poll(() => dialog.count()).toBe(0);

    // The list shows it: masked phone, quote in dollars, the first job number.
    const dana = row(page, 'Dana Diesel');
    await expect.poll(() => dana.count()).toBe(1);
    expect(await dana.getByRole('cell', { name: '•••-•••-6543' }).count()).toBe(1);
    expect(await dana.getByRole('cell', { name: '$1,250' }).count()).toBe(1);
    expect(await dana.getByRole('cell', { name: '1', exact: true }).count()).toBe(1);
    const [created] = await jobsNamed(page, 'Dana Diesel');
    expect(created).toMatchObject({
      jobNumber: '1',
      vin: '1HGCM82633A',
      quote: '1250',
      jobType: 'Mobile',
      tech: 'Tina Tech',
      csr: 'Owner',
      duration: 90,
    });
    expect(created.customerId).toBeTruthy();
    expect(new Date(created.appointment).getTime()).toBe(new Date('2025-03-01T09:15').getTime());

    // ---- inline stage ----
    const stage = dana.getByRole('combobox', { name: 'Stage for Dana Diesel' });
    await stage.click();
    const stageOptions = await page.getByRole('option').allTextContents();
    expect(stageOptions).toEqual([
      'Quote',
      'Parts Ordered',
      'Parts In',
      'Scheduled',
      'In Progress',
      'Completed',
      'Invoiced',
      'Paid',
      'Canceled',
    ]);
    await page.getByRole('option', { name: 'Parts Ordered' }).click();
    await expect.poll(async () => (await jobsNamed(page, 'Dana Diesel'))[0]?.stage).toBe('Parts Ordered');
    await expect.poll(() => stage.textContent()).toBe('Parts Ordered');
    await snap(page, 'pipeline-desktop-light');

    // ---- edit ----
    await dana.getByRole('button', { name: 'Edit Dana Diesel' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Dana Diesel' });
    // The job read on its own has the whole phone.
    await expect.poll(() => edit.getByLabel('Phone').inputValue()).toBe('555-987-6543');
    expect(await edit.getByRole('button', { name: 'Parts Ordered', pressed: true }).count()).toBe(1);
    await edit.getByLabel('Quote').fill('1500');
    await edit.getByLabel('Part').fill('Brake pads and rotors');
    await edit.getByRole('button', { name: 'Scheduled' }).click();
    await edit.getByRole('button', { name: 'Save Changes' }).click();
    await expect.poll(() => edit.count()).toBe(0);
    await expect.poll(() => dana.getByRole('cell', { name: '$1,500' }).count()).toBe(1);
    await expect.poll(() => dana.getByRole('combobox', { name: 'Stage for Dana Diesel' }).textContent()).toBe('Scheduled');

    // ---- history with values, and a past version ----
    await dana.getByRole('button', { name: 'Edit Dana Diesel' }).click();
    await expect.poll(() => edit.getByLabel('Phone').inputValue()).toBe('555-987-6543');
    await edit.getByRole('button', { name: 'History' }).click();
    const history = page.getByRole('dialog', { name: 'History for Dana Diesel' });
    await expect.poll(() => history.getByRole('list', { name: 'Changes, newest first' }).count()).toBe(1);
    const updated = history.getByRole('button', { name: /^Updated/ });
    await expect.poll(() => updated.count()).toBe(1);
    expect(await updated.getByText('$1,250', { exact: true }).count()).toBe(1);
    expect(await updated.getByText('$1,500', { exact: true }).count()).toBe(1);
    expect(await updated.getByText('Brake pads', { exact: true }).count()).toBe(1);
    expect(await updated.getByText('Brake pads and rotors', { exact: true }).count()).toBe(1);
    expect(await history.getByRole('button', { name: /^Stage changed/ }).count()).toBe(2);
    expect(
      await history
        .getByRole('button', { name: /^Created/ })
        .getByText('Owner', { exact: false })
        .count(),
    ).toBeGreaterThan(0);
    await snapViewport(page, 'pipeline-history');

    await history.getByRole('button', { name: /^Created/ }).click();
    const version = page.getByRole('dialog', { name: /^Dana Diesel as of / });
    await expect.poll(() => version.getByText('$1,250', { exact: true }).count()).toBe(1);
    expect(await version.getByText('Brake pads', { exact: true }).count()).toBe(1);
    expect(await version.getByText('555-987-6543', { exact: true }).count()).toBe(1);
    await snapViewport(page, 'pipeline-history-version');
    await version.getByRole('button', { name: 'Back' }).click();
    await page.getByRole('dialog', { name: 'History for Dana Diesel' }).getByRole('button', { name: 'Back' }).click();

    // ---- cancel and reopen ----
    await expect.poll(() => edit.count()).toBe(1);
    await edit.getByRole('button', { name: 'Cancel Job' }).click();
    await expect.poll(() => edit.getByText('Canceled ✕').count()).toBe(1);
    expect(await edit.getByRole('button', { name: 'Scheduled' }).isDisabled()).toBe(true);
    expect((await jobsNamed(page, 'Dana Diesel'))[0].stage).toBe('Canceled');
    await snapViewport(page, 'pipeline-dialog-canceled');
    await edit.getByRole('button', { name: 'Reopen' }).click();
    await expect.poll(() => edit.getByRole('button', { name: 'Cancel Job' }).count()).toBe(1);
    expect(await edit.getByRole('button', { name: 'Quote', pressed: true }).count()).toBe(1);
    expect((await jobsNamed(page, 'Dana Diesel'))[0].stage).toBe('Quote');
    // Saving after Cancel Job / Reopen is not a conflict with oneself.
    await edit.getByLabel('Notes').fill('Front axle only, customer waiting');
    await edit.getByRole('button', { name: 'Save Changes' }).click();
    await expect.poll(() => edit.count()).toBe(0);
    const actions = (await api(page, 'GET', `/api/${shop.subdomain}/pipeline/${created.id}/history`)).body.map((h: any) => h.action);
    expect(actions.slice(0, 3)).toEqual(['updated', 'reopened', 'canceled']);

    // ---- unsaved changes guard ----
    await dana.getByRole('button', { name: 'Edit Dana Diesel' }).click();
    await expect.poll(() => edit.getByLabel('Phone').inputValue()).toBe('555-987-6543');
    await edit.getByLabel('Part').fill('Something else');
    await page.keyboard.press('Escape');
    const discard = page.getByRole('alertdialog', { name: 'Unsaved changes' });
    await expect.poll(() => discard.getByText('You have unsaved changes. Are you sure you want to close without saving?').count()).toBe(1);
    await discard.getByRole('button', { name: 'Keep Editing' }).click();
    expect(await edit.getByLabel('Part').inputValue()).toBe('Something else');
    await edit.getByRole('button', { name: 'Close' }).click();
    await discard.getByRole('button', { name: 'Close Without Saving' }).click();
    await expect.poll(() => edit.count()).toBe(0);
    expect((await jobsNamed(page, 'Dana Diesel'))[0].part).toBe('Brake pads and rotors');

    // ---- a save over someone else's change: 409, then load the current version ----
    await dana.getByRole('button', { name: 'Edit Dana Diesel' }).click();
    await expect.poll(() => edit.getByLabel('Phone').inputValue()).toBe('555-987-6543');
    const other = await api(page, 'PUT', `/api/${shop.subdomain}/pipeline/${created.id}`, { part: 'Changed elsewhere' });
    expect(other.status).toBe(200);
    await edit.getByLabel('Quote').fill('1600');
    await edit.getByRole('button', { name: 'Save Changes' }).click();
    await expect.poll(() => edit.getByText('This job was changed by someone else. Reload it and try again.').count()).toBe(1);
    await snapViewport(page, 'pipeline-dialog-conflict');
    await edit.getByRole('button', { name: 'Load current version' }).click();
    expect(await edit.getByLabel('Part').inputValue()).toBe('Changed elsewhere');
    expect(await edit.getByLabel('Quote').inputValue()).toBe('1500');
    await edit.getByLabel('Quote').fill('1600');
    await edit.getByRole('button', { name: 'Save Changes' }).click();
    await expect.poll(() => edit.count()).toBe(0);
    await expect.poll(() => dana.getByRole('cell', { name: '$1,600' }).count()).toBe(1);

    // ---- delete ----
    await dana.getByRole('button', { name: 'Edit Dana Diesel' }).click();
    await edit.getByRole('button', { name: 'Delete Entry' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Confirm Delete' });
    await expect
      .poll(() => confirm.getByText('Are you sure you want to delete this entry for Dana Diesel? This action cannot be undone.').count())
      .toBe(1);
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    await expect.poll(() => page.getByText('No entries found', { exact: true }).count()).toBe(1);
    expect(await jobsNamed(page, 'Dana Diesel')).toEqual([]);
    await context.close();
  }, 180_000);

  test('search, stage filter, sorts, the canceled toggle and load more, on the server', async () => {
    const { page, context } = await newPage(browser, { baseURL: server.url });
    await signIn(page);
    for (const [name, part, quote] of [
      ['Alan Axle', 'Alternator', '300'],
      ['Bea Brake', 'Brake rotor', '450'],
      ['Carl Clutch', 'Clutch kit', '1200'],
    ] as const) {
      expect((await api(page, 'POST', `/api/${shop.subdomain}/pipeline`, { name, part, quote, phone: '6175550100' })).status).toBe(201);
    }
    const [carl] = await jobsNamed(page, 'Carl Clutch');
    expect((await api(page, 'POST', `/api/${shop.subdomain}/pipeline/${carl.id}/cancel`)).status).toBe(200);
    const [bea] = await jobsNamed(page, 'Bea Brake');
    expect((await api(page, 'PATCH', `/api/${shop.subdomain}/pipeline/${bea.id}/stage`, { stage: 'Paid' })).status).toBe(200);

    // /{subdomain}/pipeline serves the same screen.
    await page.goto(`/${shop.subdomain}/pipeline`);
    await page.waitForURL(`**${pipelinePath()}`);
    await openPipeline(page);
    // Canceled jobs are hidden by default; the toggle shows only them.
    await expect.poll(() => page.getByText('Showing 2 of 2 entries', { exact: true }).count()).toBe(1);
    expect(await row(page, 'Carl Clutch').count()).toBe(0);
    await page.getByRole('button', { name: 'Canceled', exact: true }).click();
    await expect.poll(() => page.getByText('Showing 1 of 1 entries', { exact: true }).count()).toBe(1);
    expect(await row(page, 'Carl Clutch').count()).toBe(1);
    await page.getByRole('button', { name: 'Hide Canceled' }).click();
    await expect.poll(() => row(page, 'Carl Clutch').count()).toBe(0);

    // Search runs on the server; the footer and the empty state carry the text.
    await page.getByPlaceholder('Search entries...').fill('rotor');
    await expect.poll(() => page.getByText('Showing 1 of 1 entries matching "rotor"').count()).toBe(1);
    expect(await row(page, 'Bea Brake').count()).toBe(1);
    await page.getByPlaceholder('Search entries...').fill('zzz');
    await expect.poll(() => page.getByText('No entries found matching "zzz"').count()).toBe(1);
    await page.getByPlaceholder('Search entries...').fill('');

    // Sort by stage (default) puts Quote before Paid; Name Z-A and the stage filter.
    await expect.poll(() => page.getByRole('rowheader').allTextContents()).toEqual(['Alan Axle', 'Bea Brake']);
    await choose(page, page.getByRole('combobox', { name: 'Sort entries' }), 'Name Z-A');
    await expect.poll(() => page.getByRole('rowheader').allTextContents()).toEqual(['Bea Brake', 'Alan Axle']);
    expect(await page.getByRole('button', { name: 'Sort by Stage', pressed: false }).count()).toBe(1);
    await page.getByRole('button', { name: 'Sort by Date' }).click();
    await expect.poll(() => page.getByRole('rowheader').allTextContents()).toEqual(['Bea Brake', 'Alan Axle']);
    await choose(page, page.getByRole('combobox', { name: 'Filter by stage' }), 'Paid');
    await expect.poll(() => page.getByRole('rowheader').allTextContents()).toEqual(['Bea Brake']);
    await choose(page, page.getByRole('combobox', { name: 'Filter by stage' }), 'All stages');

    // Load more: a page is 50 jobs.
    for (let i = 0; i < 50; i++) {
      await api(page, 'POST', `/api/${shop.subdomain}/pipeline`, { name: `Bulk ${String(i).padStart(2, '0')}`, part: 'Filter' });
    }
    await page.reload();
    await expect.poll(() => page.getByText('Showing 50 of 52 entries', { exact: true }).count()).toBe(1);
    await page.getByRole('button', { name: 'Load more' }).click();
    await expect.poll(() => page.getByText('Showing 52 of 52 entries', { exact: true }).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Load more' }).count()).toBe(0);
    await context.close();
  }, 120_000);

  test('dark theme, and phone cards that open the dialog', async () => {
    const dark = await newPage(browser, { baseURL: server.url, colorScheme: 'dark' });
    await signIn(dark.page);
    await openPipeline(dark.page);
    await choose(dark.page, dark.page.getByRole('combobox', { name: 'Sort entries' }), 'Oldest First');
    await expect.poll(() => dark.page.getByRole('rowheader').first().textContent()).toBe('Alan Axle');
    await snapViewport(dark.page, 'pipeline-desktop-dark');
    await dark.page.getByRole('button', { name: 'Edit Bea Brake' }).click();
    await expect
      .poll(() => dark.page.getByRole('dialog', { name: 'Edit Bea Brake' }).getByLabel('Phone').inputValue())
      .toBe('617-555-0100');
    await snapViewport(dark.page, 'pipeline-dialog-dark');
    await dark.context.close();

    const phone = await newPage(browser, { baseURL: server.url, phone: true });
    await signIn(phone.page);
    await openPipeline(phone.page);
    await choose(phone.page, phone.page.getByRole('combobox', { name: 'Sort entries' }), 'Oldest First');
    const cards = phone.page.getByRole('list', { name: 'Entries' });
    await expect.poll(() => cards.getByRole('button', { name: 'Alan Axle' }).count()).toBe(1);
    expect(await phone.page.getByRole('table').isVisible()).toBe(false);
    await snapViewport(phone.page, 'pipeline-phone-cards');
    await cards.getByRole('button', { name: 'Alan Axle' }).click();
    const dialog = phone.page.getByRole('dialog', { name: 'Edit Alan Axle' });
    await expect.poll(() => dialog.getByLabel('Phone').inputValue()).toBe('617-555-0100');
    // On a narrow screen the stage bar is a select.
    expect(await dialog.getByRole('combobox', { name: 'Stage' }).isVisible()).toBe(true);
    await snapViewport(phone.page, 'pipeline-phone-dialog');
    await phone.context.close();
  }, 60_000);

  test('the audit log: filter by entity, user, dates and text, load the rows, download the CSV', async () => {
    const { page, context } = await newPage(browser, { baseURL: server.url });
    // Something done by the tech, to filter by user.
    const tinaPage = await newPage(browser, { baseURL: server.url });
    await signIn(tinaPage.page, { username: 'tina', pin: '2222' });
    expect((await api(tinaPage.page, 'POST', `/api/${shop.subdomain}/pipeline`, { name: 'Tina Job', part: 'Wiper blades' })).status).toBe(
      201,
    );
    // Role user: may write, not delete (DECISIONS.md §3), so no Delete buttons.
    await openPipeline(tinaPage.page);
    await expect.poll(() => tinaPage.page.getByRole('button', { name: 'Edit Tina Job' }).count()).toBe(1);
    expect(await tinaPage.page.getByRole('button', { name: 'Delete Tina Job' }).count()).toBe(0);
    await tinaPage.page.getByRole('button', { name: 'Edit Tina Job' }).click();
    const tinaDialog = tinaPage.page.getByRole('dialog', { name: 'Edit Tina Job' });
    await expect.poll(() => tinaDialog.getByRole('button', { name: 'Save Changes' }).count()).toBe(1);
    expect(await tinaDialog.getByRole('button', { name: 'Delete Entry' }).count()).toBe(0);
    await tinaPage.context.close();

    await signIn(page);
    await page.goto(`/crm/${shop.subdomain}/admin/audit`);
    await expect.poll(() => page.getByRole('heading', { name: 'Audit Log', level: 1 }).count()).toBe(1);
    // Newest first, 50 at a time: the bulk jobs pushed the first ones down to later pages.
    await expect.poll(() => page.getByRole('row').nth(1).textContent()).toMatch(/Tina Tech.*Created job #\d+ \(Tina Job\)/);
    await expect.poll(() => page.getByText('Showing 50 entries', { exact: true }).count()).toBe(1);
    const deleted = page.getByRole('row').filter({ hasText: 'Deleted job #1 (Dana Diesel)' });
    for (let pages = 1; (await deleted.count()) === 0 && pages < 6; pages++) {
      const before = await page.getByRole('row').count();
      await page.getByRole('button', { name: 'Load more' }).click();
      await expect.poll(() => page.getByRole('row').count()).toBeGreaterThan(before);
    }
    expect(await deleted.count()).toBe(1);
    // Changes show old → new.
    const quoteChange = page.getByRole('row').filter({ hasText: 'Updated job #1 (Dana Diesel): Part, Quote' });
    expect(await quoteChange.getByText('$1,250').count()).toBe(1);
    expect(await quoteChange.getByText('$1,500').count()).toBe(1);
    await snap(page, 'audit-log');

    await choose(page, page.getByLabel('Entity'), 'Customer');
    await expect.poll(() => page.getByRole('row').filter({ hasText: 'Deleted job' }).count()).toBe(0);
    await expect.poll(() => page.getByRole('row').filter({ hasText: 'Created customer' }).count()).toBeGreaterThan(0);
    await choose(page, page.getByLabel('Entity'), 'Job');
    await choose(page, page.getByLabel('User'), 'Tina Tech');
    await expect.poll(() => page.getByRole('row').filter({ hasText: 'Tina Job' }).count()).toBe(1);
    expect(await page.getByRole('row').filter({ hasText: 'Dana Diesel' }).count()).toBe(0);
    await choose(page, page.getByLabel('User'), 'All users');
    await page.getByLabel('Search').fill('deleted');
    await expect.poll(() => page.getByRole('row').filter({ hasText: 'Created job' }).count()).toBe(0);
    await expect.poll(() => page.getByRole('row').filter({ hasText: 'Deleted job #1 (Dana Diesel)' }).count()).toBe(1);

    // Today is in range; a range in the past is empty.
    const today = new Date();
    const day = `${today.getFullYear()}-${String(today.getMonth() + 1).padStart(2, '0')}-${String(today.getDate()).padStart(2, '0')}`;
    await page.getByLabel('From', { exact: true }).fill(day);
    await page.getByLabel('To', { exact: true }).fill(day);
    await expect.poll(() => page.getByRole('row').filter({ hasText: 'Deleted job #1 (Dana Diesel)' }).count()).toBe(1);
    await snap(page, 'audit-log-filtered');

    // The CSV carries the same filters.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download CSV' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^audit-pipeshop-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = await readFile((await download.path())!, 'utf8');
    const lines = csv
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe('Occurred At,Actor Kind,Actor Id,Actor,Entity Type,Entity Id,Event,Summary,Changes');
    expect(lines.some((line) => line.includes('Deleted job #1 (Dana Diesel)'))).toBe(true);
    expect(lines.every((line, i) => i === 0 || line.includes(',job,'))).toBe(true);
    expect(lines.some((line) => line.includes('Created job'))).toBe(false);

    await page.getByLabel('From', { exact: true }).fill('2020-01-02');
    await page.getByLabel('To', { exact: true }).fill('2020-01-01');
    await expect.poll(() => page.getByText('"To" must be on or after "From"').count()).toBe(1);
    await page.getByLabel('To', { exact: true }).fill('2020-01-03');
    await expect.poll(() => page.getByText('No entries match these filters.').count()).toBe(1);
    await context.close();
  }, 90_000);

  test("/maven/pipeline is the same screen, on the provider's own instance", async () => {
    const superAdmin = await signInSuperAdmin(server);
    const maven = (await superAdmin.get('/api/crm-instances')).body.find((i: { subdomain: string }) => i.subdomain === 'maven');
    const added = await superAdmin.post(`/api/crm-instances/${maven.id}/users`, {
      username: 'mavenboss',
      displayName: 'Max Maven',
      pin: '4321',
      role: 'admin',
    });
    expect(added.status, added.text).toBe(201);

    const { page, context } = await newPage(browser, { baseURL: server.url });
    await page.goto('/maven');
    expect((await api(page, 'POST', '/api/auth/login', { username: 'mavenboss', pin: '4321', instance: 'maven' })).status).toBe(200);
    await page.goto('/maven/pipeline');
    await expect.poll(() => page.getByRole('heading', { name: 'Pipeline', level: 1 }).count()).toBe(1);
    await expect.poll(() => page.getByText('No entries found', { exact: true }).count()).toBe(1);
    await page.getByRole('button', { name: 'Add New Entry' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add New Entry' });
    await expect.poll(() => dialog.getByLabel('CSR').textContent()).toBe('Max Maven');
    await dialog.getByLabel('Part').fill('Headlight bulb');
    await dialog.getByRole('button', { name: 'Add Entry' }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    // No name: the row and the dialog name it by its number.
    await expect.poll(() => page.getByRole('button', { name: 'Edit Entry #1' }).count()).toBe(1);
    await page.getByRole('button', { name: 'Edit Entry #1' }).click();
    await expect.poll(() => page.getByRole('dialog', { name: 'Edit Entry #1' }).getByLabel('Part').inputValue()).toBe('Headlight bulb');
    // The pipeshop jobs are not here.
    expect(await row(page, 'Alan Axle').count()).toBe(0);
    await context.close();
  }, 60_000);
});
