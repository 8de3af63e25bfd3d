import { readFile } from 'node:fs/promises';
import type { Browser, Locator, Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { type ApiClient, signInUser, type TestServer } from '../../../backend/test/support/server.ts';
import {
  addMavenUser,
  addUser,
  createShop,
  ownServer,
  postAll,
  postOne,
  type Shop,
  signedInPage,
  SLOW,
  snap,
  snapViewport,
  TEST_TIMEOUT,
  unique,
  serverAndBrowserForFile,
} from './support.ts';

// One server and one browser for the file; every test makes its own instance, records and browser context.
let server: TestServer;
let browser: Browser;

serverAndBrowserForFile((s, b) => ([server, browser] = [s, b]));

const pipelinePath = (shop: Shop) => `/crm/${shop.subdomain}/pipeline`;
const jobsPath = (shop: Shop) => `/api/${shop.subdomain}/pipeline`;

/** A shop with a tech, Tina (role user), beside the owner. */
async function shopWithTech(prefix: string): Promise<Shop & { tina: ApiClient }> {
  const shop = await createShop(server, prefix);
  await addUser(shop.owner, { username: 'tina', displayName: 'Tina Tech', pin: '2222' });
  const tina = await signInUser(server, shop.subdomain, 'tina', '2222');
  return { ...shop, tina };
}

/** Dana Diesel's job as the add dialog makes it (job #1 of a new shop), straight through the API. */
async function seedDanaJob(shop: Shop, fields: Record<string, unknown> = {}): Promise<any> {
  return await postOne(shop.owner, jobsPath(shop), {
    name: 'Dana Diesel',
    phone: '5559876543',
    makeModel: '2018 Toyota Camry',
    part: 'Brake pads',
    quote: '1250',
    notes: 'Front axle only',
    ...fields,
  });
}

async function jobsNamed(shop: Shop, name: string): Promise<any[]> {
  const res = await shop.owner.get(`${jobsPath(shop)}?q=${encodeURIComponent(name)}&canceled=include`);
  return res.body.items;
}

async function openPipeline(page: Page, shop: Shop): Promise<void> {
  await page.goto(pipelinePath(shop));
  await expect.poll(() => page.getByRole('heading', { name: 'Pipeline', level: 1 }).count(), { timeout: SLOW }).toBe(1);
  await expect.poll(() => page.getByText(/^Showing \d+ of \d+ entries/).count()).toBe(1);
}

/** Chooses `option` in the Radix select opened by `trigger`. */
async function choose(page: Page, trigger: Locator, option: string): Promise<void> {
  await trigger.click();
  await page.getByRole('option', { name: option, exact: true }).click();
  await expect.poll(() => page.getByRole('listbox').count()).toBe(0);
}

const row = (page: Page, name: string) => page.getByRole('row').filter({ has: page.getByRole('rowheader', { name, exact: true }) });

/** Opens Dana Diesel's edit dialog from the list and waits for the job to load (the whole phone). */
async function openEdit(page: Page): Promise<Locator> {
  await row(page, 'Dana Diesel').getByRole('button', { name: 'Edit Dana Diesel' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Dana Diesel' });
  // The job read on its own has the whole phone.
  await expect.poll(() => edit.getByLabel('Phone').inputValue()).toBe('555-987-6543');
  return edit;
}

// Toast and live-region texts are counted with toBeGreaterThan(0): Radix also reads them out through a hidden copy.
describe('pipeline', () => {
  test(
    'the add dialog: defaults, the customer autocomplete (two vehicles, then +N more) links the customer, inputs format, the list shows it',
    async () => {
      const shop = await shopWithTech('pipeadd');
      await postOne(shop.owner, `/api/${shop.subdomain}/customers`, {
        name: 'Dana Diesel',
        phone: '5559876543',
        vehicles: ['2018 Toyota Camry', '2020 Ford F-150', '2015 Honda Civic'],
      });
      const { page } = await signedInPage(browser, shop.owner);
      await openPipeline(page, shop);
      await expect.poll(() => page.getByText('Manage your parts quotes and customer pipeline.').count()).toBe(1);
      await expect.poll(() => page.getByText('No entries found', { exact: true }).count()).toBe(1);

      await page.getByRole('button', { name: 'Add New Entry' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add New Entry' });
      await expect.poll(() => dialog.count()).toBe(1);
      await expect.poll(() => dialog.getByLabel('Job Number').getAttribute('placeholder')).toBe('Auto-generated');
      // CSR defaults to the signed-in user (display name), Date Created is read-only.
      await expect.poll(() => dialog.getByLabel('CSR').textContent()).toBe('Owner');
      await expect.poll(() => dialog.getByLabel('Date Created').getAttribute('readonly')).not.toBeNull();

      // The autocomplete: up to two vehicle badges, then +N more; choosing links and fills phone and vehicle.
      await dialog.getByLabel('Name').pressSequentially('Dan');
      const suggestion = page.getByRole('option', { name: /Dana Diesel/ });
      await expect.poll(() => suggestion.count()).toBe(1);
      await expect.poll(() => suggestion.getByText('2018 Toyota Camry').count()).toBe(1);
      await expect.poll(() => suggestion.getByText('2020 Ford F-150').count()).toBe(1);
      await expect.poll(() => suggestion.getByText('+1 more').count()).toBe(1);
      await expect.poll(() => suggestion.getByText('2015 Honda Civic').count()).toBe(0);
      await snapViewport(page, 'pipeline-dialog-autocomplete');
      await suggestion.click();
      await expect.poll(() => dialog.getByLabel('Name').inputValue()).toBe('Dana Diesel');
      await expect.poll(() => dialog.getByLabel('Phone').inputValue()).toBe('555-987-6543');
      // With several vehicles, the customer's are offered to pick from.
      const vehicleChoices = dialog.getByRole('group', { name: "The customer's vehicles" });
      await vehicleChoices.getByRole('button', { name: '2018 Toyota Camry' }).click();
      await expect.poll(() => dialog.getByRole('textbox', { name: 'Vehicle' }).inputValue()).toBe('2018 Toyota Camry');
      await expect.poll(() => vehicleChoices.getByRole('button', { name: '2018 Toyota Camry', pressed: true }).count()).toBe(1);
      await expect.poll(() => dialog.getByText(/Linked to customer #\d+ Dana Diesel/).count()).toBe(1);
      await expect.poll(() => page.getByRole('listbox').count()).toBe(0);

      await dialog.getByLabel('Part').fill('Brake pads');
      await dialog.getByLabel('VIN').pressSequentially('1hgcm82633a');
      await expect.poll(() => dialog.getByLabel('VIN').inputValue()).toBe('1HGCM82633A');
      // The Quote box keeps what is typed; an amount the server would refuse says why right under it.
      const quoteProblem = dialog.getByText(/^Quote must be an amount in dollars/);
      await dialog.getByLabel('Quote').pressSequentially('1,2a50');
      await expect.poll(() => dialog.getByLabel('Quote').inputValue()).toBe('1,2a50');
      await expect.poll(() => quoteProblem.count()).toBe(1);
      await dialog.getByLabel('Quote').fill('1,250');
      await expect.poll(() => quoteProblem.count()).toBe(0);
      await expect.poll(() => dialog.getByLabel('Appointment').getAttribute('step')).toBe('900');
      await dialog.getByLabel('Appointment').fill('2025-03-01T09:15');
      await choose(page, dialog.getByLabel('Job Type'), 'Mobile');
      await choose(page, dialog.getByLabel('Duration'), '1 h 30 min');
      await choose(page, dialog.getByLabel('Tech'), 'Tina Tech');
      await dialog.getByLabel('Notes').fill('Front axle only');
      await snapViewport(page, 'pipeline-dialog-add');
      await dialog.getByRole('button', { name: 'Add Entry' }).click();
      await expect.poll(() => dialog.count(), { timeout: SLOW }).toBe(0);

      // The list shows it: masked phone, quote in dollars, the first job number.
      const dana = row(page, 'Dana Diesel');
      await expect.poll(() => dana.count()).toBe(1);
      await expect.poll(() => dana.getByRole('cell', { name: '•••-•••-6543' }).count()).toBe(1);
      await expect.poll(() => dana.getByRole('cell', { name: '$1,250' }).count()).toBe(1);
      await expect.poll(() => dana.getByRole('cell', { name: '1', exact: true }).count()).toBe(1);
      await expect
        .poll(async () => (await jobsNamed(shop, 'Dana Diesel'))[0])
        .toMatchObject({
          jobNumber: '1',
          vin: '1HGCM82633A',
          quote: '1250',
          jobType: 'Mobile',
          tech: 'Tina Tech',
          csr: 'Owner',
          duration: 90,
        });
      const [created] = await jobsNamed(shop, 'Dana Diesel');
      expect(created.customerId).toBeTruthy();
      expect(new Date(created.appointment).getTime()).toBe(new Date('2025-03-01T09:15').getTime());
    },
    TEST_TIMEOUT,
  );

  test(
    'the stage changes inline from the list',
    async () => {
      const shop = await createShop(server, 'pipestage');
      await seedDanaJob(shop);
      const { page } = await signedInPage(browser, shop.owner);
      await openPipeline(page, shop);
      // A native select per row, offering all nine stages.
      const stage = row(page, 'Dana Diesel').getByRole('combobox', { name: 'Stage for Dana Diesel' });
      await expect.poll(() => stage.inputValue()).toBe('Quote');
      await expect
        .poll(() => stage.getByRole('option').allTextContents())
        .toEqual(['Quote', 'Parts Ordered', 'Parts In', 'Scheduled', 'In Progress', 'Completed', 'Invoiced', 'Paid', 'Canceled']);
      await stage.selectOption('Parts Ordered');
      await expect.poll(async () => (await jobsNamed(shop, 'Dana Diesel'))[0]?.stage).toBe('Parts Ordered');
      await expect.poll(() => stage.inputValue()).toBe('Parts Ordered');
      await snap(page, 'pipeline-desktop-light');
    },
    TEST_TIMEOUT,
  );

  test(
    'the edit dialog loads the whole job and saves changed fields and the stage',
    async () => {
      const shop = await createShop(server, 'pipeedit');
      await seedDanaJob(shop, { stage: 'Parts Ordered' });
      const { page } = await signedInPage(browser, shop.owner);
      await openPipeline(page, shop);
      const edit = await openEdit(page);
      await expect.poll(() => edit.getByRole('button', { name: 'Parts Ordered', pressed: true }).count()).toBe(1);
      await edit.getByLabel('Quote').fill('1500');
      await edit.getByLabel('Part').fill('Brake pads and rotors');
      await edit.getByRole('button', { name: 'Scheduled' }).click();
      await edit.getByRole('button', { name: 'Save Changes' }).click();
      await expect.poll(() => edit.count(), { timeout: SLOW }).toBe(0);
      const dana = row(page, 'Dana Diesel');
      await expect.poll(() => dana.getByRole('cell', { name: '$1,500' }).count()).toBe(1);
      await expect.poll(() => dana.getByRole('combobox', { name: 'Stage for Dana Diesel' }).inputValue()).toBe('Scheduled');
      await expect
        .poll(async () => (await jobsNamed(shop, 'Dana Diesel'))[0])
        .toMatchObject({
          part: 'Brake pads and rotors',
          quote: '1500',
          stage: 'Scheduled',
        });
    },
    TEST_TIMEOUT,
  );

  test(
    'the history shows changes with their values, and a past version of the job',
    async () => {
      const shop = await createShop(server, 'pipehist');
      const job = await seedDanaJob(shop);
      expect((await shop.owner.patch(`${jobsPath(shop)}/${job.id}/stage`, { stage: 'Parts Ordered' })).status).toBe(200);
      const updated = await shop.owner.put(`${jobsPath(shop)}/${job.id}`, {
        quote: '1500',
        part: 'Brake pads and rotors',
        stage: 'Scheduled',
      });
      expect(updated.status, updated.text).toBe(200);

      const { page } = await signedInPage(browser, shop.owner);
      await openPipeline(page, shop);
      const edit = await openEdit(page);
      await edit.getByRole('button', { name: 'History' }).click();
      const history = page.getByRole('dialog', { name: 'History for Dana Diesel' });
      await expect.poll(() => history.getByRole('list', { name: 'Changes, newest first' }).count()).toBe(1);
      const update = history.getByRole('button', { name: /^Updated/ });
      await expect.poll(() => update.count()).toBe(1);
      await expect.poll(() => update.getByText('$1,250', { exact: true }).count()).toBe(1);
      await expect.poll(() => update.getByText('$1,500', { exact: true }).count()).toBe(1);
      await expect.poll(() => update.getByText('Brake pads', { exact: true }).count()).toBe(1);
      await expect.poll(() => update.getByText('Brake pads and rotors', { exact: true }).count()).toBe(1);
      await expect.poll(() => history.getByRole('button', { name: /^Stage changed/ }).count()).toBe(2);
      await expect
        .poll(() =>
          history
            .getByRole('button', { name: /^Created/ })
            .getByText('Owner', { exact: false })
            .count(),
        )
        .toBeGreaterThan(0);
      await snapViewport(page, 'pipeline-history');

      // The last save recorded its edit and its stage change in one instant: the edit's version
      // has the new quote and still the stage before (the next row's change).
      await history.getByRole('button', { name: /^Updated/ }).click();
      const edited = page.getByRole('dialog', { name: /^Dana Diesel as of / });
      await expect.poll(() => edited.getByText('$1,500', { exact: true }).count()).toBe(1);
      await expect.poll(() => edited.innerText()).toMatch(/\bStage\s+Parts Ordered\b/);
      await expect.poll(() => edited.innerText()).not.toContain('Scheduled');
      await edited.getByRole('button', { name: 'Back' }).click();

      await history.getByRole('button', { name: /^Created/ }).click();
      const version = page.getByRole('dialog', { name: /^Dana Diesel as of / });
      await expect.poll(() => version.getByText('$1,250', { exact: true }).count()).toBe(1);
      await expect.poll(() => version.getByText('Brake pads', { exact: true }).count()).toBe(1);
      await expect.poll(() => version.getByText('555-987-6543', { exact: true }).count()).toBe(1);
      await snapViewport(page, 'pipeline-history-version');
      await version.getByRole('button', { name: 'Back' }).click();
      await page.getByRole('dialog', { name: 'History for Dana Diesel' }).getByRole('button', { name: 'Back' }).click();
      // Back from the history is back in the edit dialog.
      await expect.poll(() => edit.getByRole('button', { name: 'Cancel Job' }).count()).toBe(1);
    },
    TEST_TIMEOUT,
  );

  test(
    'Cancel Job and Reopen in the dialog; saving after them is not a conflict with oneself',
    async () => {
      const shop = await createShop(server, 'pipecancel');
      const job = await seedDanaJob(shop, { stage: 'Scheduled' });
      const { page } = await signedInPage(browser, shop.owner);
      await openPipeline(page, shop);
      const edit = await openEdit(page);
      await edit.getByRole('button', { name: 'Cancel Job' }).click();
      await expect.poll(() => edit.getByText('Canceled ✕').count()).toBe(1);
      await expect.poll(() => edit.getByRole('button', { name: 'Scheduled' }).isDisabled()).toBe(true);
      await expect.poll(async () => (await jobsNamed(shop, 'Dana Diesel'))[0].stage).toBe('Canceled');
      await snapViewport(page, 'pipeline-dialog-canceled');
      await edit.getByRole('button', { name: 'Reopen' }).click();
      await expect.poll(() => edit.getByRole('button', { name: 'Cancel Job' }).count()).toBe(1);
      await expect.poll(() => edit.getByRole('button', { name: 'Quote', pressed: true }).count()).toBe(1);
      await expect.poll(async () => (await jobsNamed(shop, 'Dana Diesel'))[0].stage).toBe('Quote');
      // Saving after Cancel Job / Reopen is not a conflict with oneself.
      await edit.getByLabel('Notes').fill('Front axle only, customer waiting');
      await edit.getByRole('button', { name: 'Save Changes' }).click();
      await expect.poll(() => edit.count(), { timeout: SLOW }).toBe(0);
      await expect
        .poll(async () => (await shop.owner.get(`${jobsPath(shop)}/${job.id}/history`)).body.map((h: any) => h.action).slice(0, 3))
        .toEqual(['updated', 'reopened', 'canceled']);
    },
    TEST_TIMEOUT,
  );

  test(
    'closing the dialog with unsaved changes asks first: keep editing, or close without saving',
    async () => {
      const shop = await createShop(server, 'pipeguard');
      await seedDanaJob(shop, { part: 'Brake pads and rotors' });
      const { page } = await signedInPage(browser, shop.owner);
      await openPipeline(page, shop);
      const edit = await openEdit(page);
      await edit.getByLabel('Part').fill('Something else');
      await page.keyboard.press('Escape');
      const discard = page.getByRole('alertdialog', { name: 'Unsaved changes' });
      await expect
        .poll(() => discard.getByText('You have unsaved changes. Are you sure you want to close without saving?').count())
        .toBe(1);
      await discard.getByRole('button', { name: 'Keep Editing' }).click();
      await expect.poll(() => discard.count()).toBe(0);
      await expect.poll(() => edit.getByLabel('Part').inputValue()).toBe('Something else');
      await edit.getByRole('button', { name: 'Close' }).click();
      await discard.getByRole('button', { name: 'Close Without Saving' }).click();
      await expect.poll(() => edit.count()).toBe(0);
      await expect.poll(async () => (await jobsNamed(shop, 'Dana Diesel'))[0].part).toBe('Brake pads and rotors');
    },
    TEST_TIMEOUT,
  );

  test(
    "a save over someone else's change is a conflict (409); loading the current version lets it save",
    async () => {
      const shop = await createShop(server, 'pipeconflict');
      const job = await seedDanaJob(shop, { part: 'Brake pads and rotors', quote: '1500' });
      const { page } = await signedInPage(browser, shop.owner);
      await openPipeline(page, shop);
      const edit = await openEdit(page);
      const other = await shop.owner.put(`${jobsPath(shop)}/${job.id}`, { part: 'Changed elsewhere' });
      expect(other.status, other.text).toBe(200);
      await edit.getByLabel('Quote').fill('1600');
      await edit.getByRole('button', { name: 'Save Changes' }).click();
      await expect.poll(() => edit.getByText('This job was changed by someone else. Reload it and try again.').count()).toBe(1);
      await snapViewport(page, 'pipeline-dialog-conflict');
      await edit.getByRole('button', { name: 'Load current version' }).click();
      await expect.poll(() => edit.getByLabel('Part').inputValue()).toBe('Changed elsewhere');
      await expect.poll(() => edit.getByLabel('Quote').inputValue()).toBe('1500');
      await edit.getByLabel('Quote').fill('1600');
      await edit.getByRole('button', { name: 'Save Changes' }).click();
      await expect.poll(() => edit.count(), { timeout: SLOW }).toBe(0);
      await expect.poll(() => row(page, 'Dana Diesel').getByRole('cell', { name: '$1,600' }).count()).toBe(1);
    },
    TEST_TIMEOUT,
  );

  test(
    'Delete Entry asks for a confirmation, then the job is gone',
    async () => {
      const shop = await createShop(server, 'pipedelete');
      await seedDanaJob(shop);
      const { page } = await signedInPage(browser, shop.owner);
      await openPipeline(page, shop);
      const edit = await openEdit(page);
      await edit.getByRole('button', { name: 'Delete Entry' }).click();
      const confirm = page.getByRole('alertdialog', { name: 'Confirm Delete' });
      await expect
        .poll(() =>
          confirm
            .getByText(
              'Are you sure you want to delete this entry for Dana Diesel? It leaves the pipeline; an admin can restore it from Admin → Deleted records.',
            )
            .count(),
        )
        .toBe(1);
      await confirm.getByRole('button', { name: 'Delete' }).click();
      await expect.poll(() => page.getByRole('dialog').count(), { timeout: SLOW }).toBe(0);
      await expect.poll(() => page.getByText('No entries found', { exact: true }).count()).toBe(1);
      await expect.poll(() => jobsNamed(shop, 'Dana Diesel')).toEqual([]);
    },
    TEST_TIMEOUT,
  );

  test(
    'search, the stage filter, sorts and the canceled toggle run on the server; /{subdomain}/pipeline is the same screen',
    async () => {
      const shop = await createShop(server, 'pipesearch');
      // One at a time: the date sort below depends on the order they were made in.
      for (const [name, part, quote] of [
        ['Alan Axle', 'Alternator', '300'],
        ['Bea Brake', 'Brake rotor', '450'],
        ['Carl Clutch', 'Clutch kit', '1200'],
      ] as const) {
        await postOne(shop.owner, jobsPath(shop), { name, part, quote, phone: '6175550100' });
      }
      const [carl] = await jobsNamed(shop, 'Carl Clutch');
      expect((await shop.owner.post(`${jobsPath(shop)}/${carl.id}/cancel`)).status).toBe(200);
      const [bea] = await jobsNamed(shop, 'Bea Brake');
      expect((await shop.owner.patch(`${jobsPath(shop)}/${bea.id}/stage`, { stage: 'Paid' })).status).toBe(200);

      const { page } = await signedInPage(browser, shop.owner);
      // /{subdomain}/pipeline serves the same screen.
      await page.goto(`/${shop.subdomain}/pipeline`);
      await page.waitForURL(`**${pipelinePath(shop)}`);
      await expect.poll(() => page.getByRole('heading', { name: 'Pipeline', level: 1 }).count(), { timeout: SLOW }).toBe(1);
      // Canceled jobs are hidden by default; the toggle shows only them.
      await expect.poll(() => page.getByText('Showing 2 of 2 entries', { exact: true }).count()).toBe(1);
      await expect.poll(() => row(page, 'Carl Clutch').count()).toBe(0);
      await page.getByRole('button', { name: 'Canceled', exact: true }).click();
      await expect.poll(() => page.getByText('Showing 1 of 1 entries', { exact: true }).count()).toBe(1);
      await expect.poll(() => row(page, 'Carl Clutch').count()).toBe(1);
      await page.getByRole('button', { name: 'Hide Canceled' }).click();
      await expect.poll(() => row(page, 'Carl Clutch').count()).toBe(0);

      // Search runs on the server; the footer and the empty state carry the text.
      await page.getByPlaceholder('Search entries...').fill('rotor');
      await expect.poll(() => page.getByText('Showing 1 of 1 entries matching "rotor"').count()).toBe(1);
      await expect.poll(() => row(page, 'Bea Brake').count()).toBe(1);
      await page.getByPlaceholder('Search entries...').fill('zzz');
      await expect.poll(() => page.getByText('No entries found matching "zzz"').count()).toBe(1);
      await page.getByPlaceholder('Search entries...').fill('');

      // Sort by stage (default) puts Quote before Paid; Name Z-A, newest first and the stage filter.
      const sort = page.getByRole('combobox', { name: 'Sort entries' });
      await expect.poll(() => sort.innerText()).toMatch(/^Sort:\s+Stage$/);
      await expect.poll(() => page.getByRole('rowheader').allTextContents()).toEqual(['Alan Axle', 'Bea Brake']);
      await choose(page, sort, 'Name Z-A');
      await expect.poll(() => page.getByRole('rowheader').allTextContents()).toEqual(['Bea Brake', 'Alan Axle']);
      // One sort at a time: the control says which.
      await expect.poll(() => sort.textContent()).toContain('Name Z-A');
      await expect.poll(() => sort.textContent()).not.toContain('Stage');
      await choose(page, sort, 'Newest First');
      await expect.poll(() => sort.textContent()).toContain('Newest First');
      await expect.poll(() => page.getByRole('rowheader').allTextContents()).toEqual(['Bea Brake', 'Alan Axle']);
      await choose(page, page.getByRole('combobox', { name: 'Filter by stage' }), 'Paid');
      await expect.poll(() => page.getByRole('rowheader').allTextContents()).toEqual(['Bea Brake']);
      await choose(page, page.getByRole('combobox', { name: 'Filter by stage' }), 'All stages');
      await expect.poll(() => page.getByRole('rowheader').allTextContents()).toEqual(['Bea Brake', 'Alan Axle']);
    },
    TEST_TIMEOUT,
  );

  test(
    'the list loads 50 jobs at a time: "Load more" brings the rest',
    async () => {
      const shop = await createShop(server, 'pipemore');
      await postAll(
        shop.owner,
        jobsPath(shop),
        Array.from({ length: 52 }, (_, i) => ({ name: `Bulk ${String(i).padStart(2, '0')}`, part: 'Filter' })),
      );
      const { page } = await signedInPage(browser, shop.owner);
      await openPipeline(page, shop);
      await expect.poll(() => page.getByText('Showing 50 of 52 entries', { exact: true }).count()).toBe(1);
      await page.getByRole('button', { name: 'Load more' }).click();
      await expect.poll(() => page.getByText('Showing 52 of 52 entries', { exact: true }).count()).toBe(1);
      await expect.poll(() => page.getByRole('button', { name: 'Load more' }).count()).toBe(0);
    },
    TEST_TIMEOUT,
  );

  /** Alan Axle, then Bea Brake (oldest first), both with the same phone. */
  async function seedAlanAndBea(prefix: string): Promise<Shop> {
    const shop = await createShop(server, prefix);
    await postOne(shop.owner, jobsPath(shop), { name: 'Alan Axle', part: 'Alternator', quote: '300', phone: '6175550100' });
    await postOne(shop.owner, jobsPath(shop), { name: 'Bea Brake', part: 'Brake rotor', quote: '450', phone: '6175550100' });
    return shop;
  }

  test(
    'dark theme: the list and the dialog',
    async () => {
      const shop = await seedAlanAndBea('pipedark');
      const { page } = await signedInPage(browser, shop.owner, { colorScheme: 'dark' });
      await openPipeline(page, shop);
      await choose(page, page.getByRole('combobox', { name: 'Sort entries' }), 'Oldest First');
      await expect.poll(() => page.getByRole('rowheader').first().textContent()).toBe('Alan Axle');
      await snapViewport(page, 'pipeline-desktop-dark');
      await page.getByRole('button', { name: 'Edit Bea Brake' }).click();
      await expect.poll(() => page.getByRole('dialog', { name: 'Edit Bea Brake' }).getByLabel('Phone').inputValue()).toBe('617-555-0100');
      await snapViewport(page, 'pipeline-dialog-dark');
    },
    TEST_TIMEOUT,
  );

  test(
    'on a phone the jobs are cards that open the dialog, whose stage bar is a select',
    async () => {
      const shop = await seedAlanAndBea('pipephone');
      const { page } = await signedInPage(browser, shop.owner, { phone: true });
      await openPipeline(page, shop);
      // The sort box beside the stage filter says it sorts, whole, in its half of the width.
      const sort = page.getByRole('combobox', { name: 'Sort entries' });
      await expect.poll(() => sort.innerText()).toMatch(/^Sort:\s+Stage$/);
      await choose(page, sort, 'Oldest First');
      await expect.poll(() => sort.innerText()).toMatch(/^Sort:\s+Oldest$/);
      await expect
        .poll(() =>
          sort
            .locator('span')
            .first()
            .evaluate((value) => value.scrollWidth <= value.clientWidth),
        )
        .toBe(true);
      const cards = page.getByRole('list', { name: 'Entries' });
      await expect.poll(() => cards.getByRole('button', { name: 'Alan Axle' }).count()).toBe(1);
      await expect.poll(() => page.getByRole('table').isVisible()).toBe(false);
      await snapViewport(page, 'pipeline-phone-cards');
      await cards.getByRole('button', { name: 'Alan Axle' }).click();
      const dialog = page.getByRole('dialog', { name: 'Edit Alan Axle' });
      await expect.poll(() => dialog.getByLabel('Phone').inputValue()).toBe('617-555-0100');
      // On a narrow screen the stage bar is a select.
      await expect.poll(() => dialog.getByRole('combobox', { name: 'Stage' }).isVisible()).toBe(true);
      await snapViewport(page, 'pipeline-phone-dialog');
    },
    TEST_TIMEOUT,
  );

  test(
    'a user (role user) may write but not delete: no Delete buttons',
    async () => {
      const shop = await shopWithTech('piperole');
      await postOne(shop.tina, jobsPath(shop), { name: 'Tina Job', part: 'Wiper blades' });
      // Role user: may write, not delete, so no Delete buttons.
      const { page } = await signedInPage(browser, shop.tina);
      await openPipeline(page, shop);
      await expect.poll(() => page.getByRole('button', { name: 'Edit Tina Job' }).count()).toBe(1);
      await expect.poll(() => page.getByRole('button', { name: 'Delete Tina Job' }).count()).toBe(0);
      await page.getByRole('button', { name: 'Edit Tina Job' }).click();
      const dialog = page.getByRole('dialog', { name: 'Edit Tina Job' });
      await expect.poll(() => dialog.getByRole('button', { name: 'Save Changes' }).count()).toBe(1);
      await expect.poll(() => dialog.getByRole('button', { name: 'Delete Entry' }).count()).toBe(0);
    },
    TEST_TIMEOUT,
  );

  /**
   * An audit trail like a day's work: the owner adds customer Dana Diesel and job #1 for her,
   * changes its part and quote, deletes it; `bulk` more jobs; then the tech adds a job of her own.
   */
  async function seedAuditTrail(prefix: string, bulk: number) {
    const shop = await shopWithTech(prefix);
    const customer = await postOne(shop.owner, `/api/${shop.subdomain}/customers`, { name: 'Dana Diesel', phone: '5559876543' });
    const job = await seedDanaJob(shop, { customerId: customer.id });
    expect(job.jobNumber).toBe('1');
    const updated = await shop.owner.put(`${jobsPath(shop)}/${job.id}`, { part: 'Brake pads and rotors', quote: '1500' });
    expect(updated.status, updated.text).toBe(200);
    expect((await shop.owner.delete(`${jobsPath(shop)}/${job.id}`)).status).toBe(204);
    await postAll(
      shop.owner,
      jobsPath(shop),
      Array.from({ length: bulk }, (_, i) => ({ name: `Bulk ${String(i).padStart(2, '0')}`, part: 'Filter' })),
    );
    await postOne(shop.tina, jobsPath(shop), { name: 'Tina Job', part: 'Wiper blades' });
    return shop;
  }

  test(
    'the audit log: newest first, 50 at a time, "Load more" reaches older rows; changes show old → new',
    async () => {
      const shop = await seedAuditTrail('pipeaudit', 50);
      const { page } = await signedInPage(browser, shop.owner);
      await page.goto(`/crm/${shop.subdomain}/admin/audit`);
      await expect.poll(() => page.getByRole('heading', { name: 'Audit Log', level: 1 }).count(), { timeout: SLOW }).toBe(1);
      // Newest first, 50 at a time: the bulk jobs pushed the first ones down to later pages.
      await expect
        .poll(() => page.getByRole('row').nth(1).textContent(), { timeout: SLOW })
        .toMatch(/Tina Tech.*Created job #\d+ \(Tina Job\)/);
      await expect.poll(() => page.getByText('Showing 50 entries', { exact: true }).count()).toBe(1);
      const deleted = page.getByRole('row').filter({ hasText: 'Deleted job #1 (Dana Diesel)' });
      await expect.poll(() => deleted.count()).toBe(0);
      for (let pages = 1; (await deleted.count()) === 0 && pages < 6; pages++) {
        const before = await page.getByRole('row').count();
        await page.getByRole('button', { name: 'Load more' }).click();
        await expect.poll(() => page.getByRole('row').count()).toBeGreaterThan(before);
      }
      await expect.poll(() => deleted.count()).toBe(1);
      // Changes show old → new.
      const quoteChange = page.getByRole('row').filter({ hasText: 'Updated job #1 (Dana Diesel): Part, Quote' });
      await expect.poll(() => quoteChange.getByText('$1,250').count()).toBe(1);
      await expect.poll(() => quoteChange.getByText('$1,500').count()).toBe(1);
      await snap(page, 'audit-log');
    },
    TEST_TIMEOUT,
  );

  test(
    'the audit log filters by entity, user, text and dates, and the CSV carries the same filters',
    async () => {
      const shop = await seedAuditTrail('pipefilter', 0);
      const { page } = await signedInPage(browser, shop.owner);
      await page.goto(`/crm/${shop.subdomain}/admin/audit`);
      await expect.poll(() => page.getByRole('heading', { name: 'Audit Log', level: 1 }).count(), { timeout: SLOW }).toBe(1);
      // The trail is all there: the newest row is the tech's job.
      await expect
        .poll(() => page.getByRole('row').nth(1).textContent(), { timeout: SLOW })
        .toMatch(/Tina Tech.*Created job #\d+ \(Tina Job\)/);

      await choose(page, page.getByLabel('Entity'), 'Customer');
      await expect.poll(() => page.getByRole('row').filter({ hasText: 'Deleted job' }).count()).toBe(0);
      await expect.poll(() => page.getByRole('row').filter({ hasText: 'Created customer' }).count()).toBeGreaterThan(0);
      await choose(page, page.getByLabel('Entity'), 'Job');
      await choose(page, page.getByLabel('User'), 'Tina Tech');
      await expect.poll(() => page.getByRole('row').filter({ hasText: 'Tina Job' }).count()).toBe(1);
      await expect.poll(() => page.getByRole('row').filter({ hasText: 'Dana Diesel' }).count()).toBe(0);
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
      expect(download.suggestedFilename()).toMatch(new RegExp(`^audit-${shop.subdomain}-\\d{4}-\\d{2}-\\d{2}\\.csv$`));
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
    },
    TEST_TIMEOUT,
  );

  test(
    "/maven/pipeline is the same screen, on the provider's own instance",
    async () => {
      // A server of its own: the provider's instance starts with no jobs there.
      const own = await ownServer();
      const elsewhere = await createShop(own, 'pipemaven');
      await postOne(elsewhere.owner, jobsPath(elsewhere), { name: 'Alan Axle', part: 'Alternator' });
      const username = unique('maven');
      await addMavenUser(own, { username, displayName: 'Max Maven', pin: '4321' });
      const maven = await signInUser(own, 'maven', username, '4321');

      const { page } = await signedInPage(browser, maven);
      await page.goto('/maven/pipeline');
      await expect.poll(() => page.getByRole('heading', { name: 'Pipeline', level: 1 }).count(), { timeout: SLOW }).toBe(1);
      await expect.poll(() => page.getByText('No entries found', { exact: true }).count()).toBe(1);
      await page.getByRole('button', { name: 'Add New Entry' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add New Entry' });
      await expect.poll(() => dialog.getByLabel('CSR').textContent()).toBe('Max Maven');
      await dialog.getByLabel('Part').fill('Headlight bulb');
      await dialog.getByRole('button', { name: 'Add Entry' }).click();
      await expect.poll(() => dialog.count(), { timeout: SLOW }).toBe(0);
      // No name: the row and the dialog name it by its number.
      await expect.poll(() => page.getByRole('button', { name: 'Edit Entry #1' }).count()).toBe(1);
      // The other instance's jobs are not here.
      await expect.poll(() => row(page, 'Alan Axle').count()).toBe(0);
      await page.getByRole('button', { name: 'Edit Entry #1' }).click();
      await expect.poll(() => page.getByRole('dialog', { name: 'Edit Entry #1' }).getByLabel('Part').inputValue()).toBe('Headlight bulb');
    },
    TEST_TIMEOUT,
  );
});
