import type { Browser, Locator, Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import type { TestServer } from '../../../backend/test/support/server.ts';
import {
  createShop,
  postAll,
  postOne,
  serverAndBrowserForFile,
  type Shop,
  signedInPage,
  SLOW,
  snap,
  TEST_TIMEOUT,
  toastTexts,
} from './support.ts';

// One server and one browser for the file; every test makes its own instance, records and browser context.
let server: TestServer;
let browser: Browser;

serverAndBrowserForFile((s, b) => ([server, browser] = [s, b]));

const jobsPath = (shop: Shop) => `/api/${shop.subdomain}/pipeline`;

/** Three jobs in Quote, one Paid and one Canceled. */
async function seedBoard(shop: Shop): Promise<Record<string, any>> {
  const created = await postAll(shop.owner, jobsPath(shop), [
    { name: 'Dana Diesel', part: 'Brake pads', makeModel: '2018 Toyota Camry', quote: '1250', tech: 'Tina Tech', stage: 'Quote' },
    { name: 'Evan Exhaust', part: 'Muffler', makeModel: '2012 Ford Focus', quote: '300', stage: 'Quote' },
    { name: 'Fay Filter', part: 'Oil filter', quote: '45.50', stage: 'Quote', appointment: '2031-05-02T14:30:00.000Z' },
    { name: 'Gus Gasket', part: 'Head gasket', quote: '2000', stage: 'Paid' },
    { name: 'Hal Hose', part: 'Radiator hose', quote: '80', stage: 'Canceled' },
  ]);
  return Object.fromEntries(created.map((job) => [job.name, job]));
}

async function stageOf(shop: Shop, id: string): Promise<string> {
  return (await shop.owner.get(`${jobsPath(shop)}/${id}`)).body.stage;
}

const column = (page: Page, stage: string) => page.getByRole('region', { name: 'Stage board' }).locator(`section[data-stage="${stage}"]`);
const card = (page: Page, stage: string, name: string) => column(page, stage).getByRole('listitem').filter({ hasText: name });
const heading = (page: Page, stage: string) => column(page, stage).getByRole('heading', { level: 2 });

async function openBoard(page: Page, shop: Shop, query = ''): Promise<void> {
  await page.goto(`/crm/${shop.subdomain}/pipeline?view=board${query}`);
  await expect.poll(() => page.getByRole('region', { name: 'Stage board' }).count(), { timeout: SLOW }).toBe(1);
}

/** Drags a card onto a column (HTML drag and drop, as a mouse does it). */
async function drag(page: Page, from: Locator, to: Locator): Promise<void> {
  await from.scrollIntoViewIfNeeded();
  await from.dragTo(to);
}

// Toast texts are counted with toBeGreaterThan(0): Radix also reads them out through a hidden copy.
describe('stage board', () => {
  test(
    'columns per stage with counts and quote totals; dragging a card moves the job; Canceled only when asked; filters in the address',
    async () => {
      const shop = await createShop(server, 'board');
      const jobs = await seedBoard(shop);
      const { page } = await signedInPage(browser, shop.owner);
      await openBoard(page, shop);

      await expect.poll(() => page.getByRole('button', { name: 'Board', pressed: true }).count()).toBe(1);
      await expect.poll(() => card(page, 'Quote', 'Dana Diesel').count(), { timeout: SLOW }).toBe(1);
      await expect.poll(() => heading(page, 'Quote').textContent()).toContain('3');
      await expect.poll(() => column(page, 'Quote').locator('header').textContent()).toContain('$1,595.50');
      await expect.poll(() => column(page, 'Paid').locator('header').textContent()).toContain('$2,000');
      // A card: number, customer, part, vehicle, tech, quote.
      const dana = card(page, 'Quote', 'Dana Diesel');
      // The jobs were created side by side, so Dana's number is whichever the server gave her.
      const danaCard = new RegExp(
        `^#${jobs['Dana Diesel'].jobNumber}(?!\\d).*Dana Diesel.*Brake pads.*2018 Toyota Camry.*Tina Tech.*\\$1,250`,
      );
      await expect.poll(() => dana.textContent()).toMatch(danaCard);
      // Canceled is hidden until asked for.
      await expect.poll(() => column(page, 'Canceled').count()).toBe(0);
      await snap(page, 'board-desktop-light');

      await drag(page, dana, column(page, 'Parts In'));
      await expect.poll(() => card(page, 'Parts In', 'Dana Diesel').count()).toBe(1);
      await expect.poll(() => stageOf(shop, jobs['Dana Diesel'].id), { timeout: SLOW }).toBe('Parts In');
      await expect.poll(() => card(page, 'Quote', 'Dana Diesel').count()).toBe(0);
      await expect.poll(() => heading(page, 'Quote').textContent()).toContain('2');
      await expect.poll(() => column(page, 'Parts In').locator('header').textContent()).toContain('$1,250');
      // The history says it was a stage change.
      const history = (await shop.owner.get(`${jobsPath(shop)}/${jobs['Dana Diesel'].id}/history`)).body;
      expect(history[0].action).toBe('stage-changed');

      await page.getByRole('button', { name: 'Canceled' }).click();
      await expect.poll(() => card(page, 'Canceled', 'Hal Hose').count()).toBe(1);
      await expect.poll(() => new URL(page.url()).searchParams.get('canceled')).toBe('1');

      // The search is the list's, and kept in the address: a reload shows the same board.
      await page.getByLabel('Search entries').fill('gasket');
      await expect.poll(() => new URL(page.url()).searchParams.get('q')).toBe('gasket');
      await expect.poll(() => card(page, 'Quote', 'Evan Exhaust').count()).toBe(0);
      await expect.poll(() => card(page, 'Paid', 'Gus Gasket').count()).toBe(1);
      await page.reload();
      await expect.poll(() => page.getByLabel('Search entries').inputValue(), { timeout: SLOW }).toBe('gasket');
      await expect.poll(() => card(page, 'Paid', 'Gus Gasket').count()).toBe(1);
      await expect.poll(() => card(page, 'Quote', 'Fay Filter').count()).toBe(0);
      // The table shares it.
      await page.getByRole('button', { name: 'Table' }).click();
      await expect.poll(() => page.getByText(/^Showing 0 of 0 entries matching "gasket"/).count()).toBe(1);
      await page.getByRole('button', { name: 'Canceled' }).click();
      await expect.poll(() => page.getByText(/^Showing 1 of 1 entries matching "gasket"/).count()).toBe(1);
      await expect.poll(() => page.getByRole('rowheader', { name: 'Gus Gasket' }).count()).toBe(1);
    },
    TEST_TIMEOUT,
  );

  test(
    'keyboard: Alt+→ and Alt+← move the focused card to the next and previous stage, its menu to any stage',
    async () => {
      const shop = await createShop(server, 'boardkeys');
      const jobs = await seedBoard(shop);
      const { page } = await signedInPage(browser, shop.owner);
      await openBoard(page, shop);
      const evanButton = (stage: string) => card(page, stage, 'Evan Exhaust').getByRole('button', { name: 'Evan Exhaust', exact: true });
      await expect.poll(() => evanButton('Quote').count(), { timeout: SLOW }).toBe(1);
      await evanButton('Quote').focus();
      await page.keyboard.press('Alt+ArrowRight');
      await expect.poll(() => evanButton('Parts Ordered').count()).toBe(1);
      await expect.poll(() => stageOf(shop, jobs['Evan Exhaust'].id), { timeout: SLOW }).toBe('Parts Ordered');
      // Focus stays on the card in its new column, so the keys can go on.
      await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Evan Exhaust');
      await page.keyboard.press('Alt+ArrowRight');
      await expect.poll(() => stageOf(shop, jobs['Evan Exhaust'].id), { timeout: SLOW }).toBe('Parts In');
      // The card moves column (a new element): the key goes to it once focus has followed it there.
      await expect.poll(() => evanButton('Parts In').count()).toBe(1);
      await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Evan Exhaust');
      await page.keyboard.press('Alt+ArrowLeft');
      await expect.poll(() => stageOf(shop, jobs['Evan Exhaust'].id), { timeout: SLOW }).toBe('Parts Ordered');
      await expect.poll(() => evanButton('Parts Ordered').count()).toBe(1);

      await card(page, 'Parts Ordered', 'Evan Exhaust').getByRole('button', { name: 'Move Evan Exhaust' }).click();
      await page.getByRole('menuitem', { name: /^Invoiced/ }).click();
      await expect.poll(() => stageOf(shop, jobs['Evan Exhaust'].id), { timeout: SLOW }).toBe('Invoiced');
      await expect.poll(() => card(page, 'Invoiced', 'Evan Exhaust').count()).toBe(1);
      // Enter still opens the entry.
      await evanButton('Invoiced').focus();
      await page.keyboard.press('Enter');
      await expect.poll(() => page.getByRole('dialog', { name: 'Edit Evan Exhaust' }).count()).toBe(1);
    },
    TEST_TIMEOUT,
  );

  test(
    'a refused move puts the card back and a toast says why',
    async () => {
      const shop = await createShop(server, 'boardrefuse');
      const jobs = await seedBoard(shop);
      const { page } = await signedInPage(browser, shop.owner);
      await openBoard(page, shop);
      // The server refuses this stage change (as it would a job deleted or a permission taken away meanwhile).
      await page.route('**/pipeline/*/stage', (route) =>
        route.fulfill({
          status: 403,
          contentType: 'application/problem+json',
          body: JSON.stringify({ type: 'about:blank', title: 'Forbidden', status: 403, message: 'You may not change this job' }),
        }),
      );
      const fay = card(page, 'Quote', 'Fay Filter');
      await expect.poll(() => fay.count(), { timeout: SLOW }).toBe(1);
      await drag(page, fay, column(page, 'Scheduled'));
      await expect.poll(() => toastTexts(page)).toContain('Could not move the job');
      await expect.poll(() => toastTexts(page)).toContain('Fay Filter: You may not change this job');
      await expect.poll(() => card(page, 'Quote', 'Fay Filter').count()).toBe(1);
      await expect.poll(() => card(page, 'Scheduled', 'Fay Filter').count()).toBe(0);
      await expect.poll(() => heading(page, 'Quote').textContent()).toContain('3');
      await expect.poll(() => stageOf(shop, jobs['Fay Filter'].id)).toBe('Quote');
    },
    TEST_TIMEOUT,
  );

  test(
    "a card's vehicle opens the vehicle's page, on the board and on a phone's list; the rest of the card opens the job",
    async () => {
      const shop = await createShop(server, 'boardcar');
      const customers = `/api/${shop.subdomain}/customers`;
      const customer = await postOne(shop.owner, customers, { name: 'Vera Vehicle', phone: '5550102030' });
      const vehicle = await postOne(shop.owner, `${customers}/${customer.id}/vehicles`, { year: 2017, make: 'Subaru', model: 'Outback' });
      await postOne(shop.owner, jobsPath(shop), {
        name: 'Vera Vehicle',
        customerId: customer.id,
        vehicleId: vehicle.id,
        part: 'Timing belt',
      });
      const vehiclePage = new RegExp(`/crm/${shop.subdomain}/vehicles/${vehicle.id}$`);
      for (const phone of [false, true]) {
        const { page, context } = await signedInPage(browser, shop.owner, { phone });
        if (phone) await page.goto(`/crm/${shop.subdomain}/pipeline`);
        else await openBoard(page, shop);
        const where = phone ? page.getByRole('list', { name: 'Entries' }).getByRole('listitem') : card(page, 'Quote', 'Vera Vehicle');
        const link = where.filter({ hasText: 'Vera Vehicle' }).getByRole('link', { name: /Subaru Outback/ });
        await expect.poll(() => link.count(), { timeout: SLOW }).toBe(1);
        // The job's own button still opens the job.
        await where
          .filter({ hasText: 'Vera Vehicle' })
          .getByRole('button', { name: /Vera Vehicle/ })
          .first()
          .click();
        await expect.poll(() => page.getByRole('dialog', { name: /Vera Vehicle/ }).count(), { timeout: SLOW }).toBe(1);
        await page.keyboard.press('Escape');
        await expect.poll(() => page.getByRole('dialog').count(), { timeout: SLOW }).toBe(0);
        await link.click();
        await expect.poll(() => page.url(), { timeout: SLOW }).toMatch(vehiclePage);
        await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent(), { timeout: SLOW }).toContain('Subaru Outback');
        await context.close();
      }
    },
    TEST_TIMEOUT,
  );

  test(
    'the board in both themes on a desktop and a phone',
    async () => {
      const shop = await createShop(server, 'boardlook');
      await seedBoard(shop);
      for (const colorScheme of ['light', 'dark'] as const) {
        for (const phone of [false, true]) {
          const { page, context } = await signedInPage(browser, shop.owner, { colorScheme, phone });
          await openBoard(page, shop);
          await expect.poll(() => card(page, 'Quote', 'Dana Diesel').count(), { timeout: SLOW }).toBe(1);
          await snap(page, `board-${phone ? 'phone' : 'desktop'}-${colorScheme}`);
          if (phone) {
            // On a phone the menu is the way to move a card.
            await card(page, 'Quote', 'Dana Diesel').getByRole('button', { name: 'Move Dana Diesel' }).click();
            await expect.poll(() => page.getByRole('menuitem', { name: /^Parts Ordered/ }).count()).toBe(1);
            await snap(page, `board-phone-menu-${colorScheme}`);
            await page.keyboard.press('Escape');
          }
          await context.close();
        }
      }
    },
    TEST_TIMEOUT,
  );
});
