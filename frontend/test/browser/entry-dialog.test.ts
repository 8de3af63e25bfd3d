import type { Browser } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { signInUser, type TestServer } from '../../../backend/test/support/server.ts';
import {
  addUser,
  createShop,
  postOne,
  signedInPage,
  SLOW,
  snapViewport,
  TEST_TIMEOUT,
  unique,
  serverAndBrowserForFile,
} from './support.ts';

/** The pipeline's entry dialog: what a new shop ran into on day one. */
let server: TestServer;
let browser: Browser;

serverAndBrowserForFile((s, b) => ([server, browser] = [s, b]));

const dialog = (page: import('playwright-core').Page) => page.getByRole('dialog');

/** What a box's aria-describedby says (its hint and its error), as a screen reader reads it. */
const description = (box: import('playwright-core').Locator) =>
  box.evaluate((el) =>
    (el.getAttribute('aria-describedby') ?? '')
      .split(' ')
      .map((id) => document.getElementById(id)?.textContent ?? '')
      .join(' '),
  );

describe('the entry dialog', () => {
  test(
    "every VIN box says what is wrong as it is typed, or what the VIN decodes to; the vehicle's boxes line up with the dialog's columns",
    async () => {
      const shop = await createShop(server, 'vinbox');
      const customer = await postOne(shop.owner, `/api/${shop.subdomain}/customers`, { name: 'Vera Vin' });
      await postOne(shop.owner, `/api/${shop.subdomain}/pipeline`, { name: 'Vera Vin', customerId: customer.id });
      const { page } = await signedInPage(browser, shop.owner, { colorScheme: 'dark' });
      await page.goto(`/crm/${shop.subdomain}/pipeline`);

      // A new job's own VIN box: the job keeps the text as typed, and the box says the problem at once.
      await page.getByRole('button', { name: 'Add New Entry' }).click();
      const vin = dialog(page).getByLabel('VIN', { exact: true });
      await vin.fill('1HGCM82633A00435');
      await expect.poll(() => description(vin)).toContain('VIN must be 17 characters (this one has 16)');
      await expect.poll(() => vin.getAttribute('aria-invalid')).toBe('true');
      await vin.fill('1HGCM82623A004352');
      await expect.poll(() => description(vin)).toContain('check digit is wrong');
      await vin.fill('1HGCM82633A004352');
      await expect.poll(() => description(vin)).toContain('Honda');
      await expect.poll(() => vin.getAttribute('aria-invalid')).toBe(null);
      await snapViewport(page, 'entry-dialog-vin-dark');
      await dialog(page).getByRole('button', { name: 'Cancel', exact: true }).click();
      await page.getByRole('button', { name: 'Close Without Saving' }).click();

      // A job of a customer: the vehicle added in the dialog checks its VIN the same way.
      await page.getByRole('button', { name: 'Edit Vera Vin' }).click({ timeout: SLOW });
      await dialog(page).getByRole('button', { name: 'Add a vehicle' }).click({ timeout: SLOW });
      const added = dialog(page).getByRole('group', { name: 'New vehicle' }).getByLabel('VIN');
      await added.fill('1HGCM82633A00435');
      await expect.poll(() => description(added)).toContain('VIN must be 17 characters (this one has 16)');
      await added.fill('1HGCM82633A004352');
      await expect.poll(() => description(added)).toContain('Honda');

      // Mileage in and out sit in the same two columns as Phone and Part above them.
      const left = async (label: string) => (await dialog(page).getByLabel(label, { exact: true }).boundingBox())!;
      await expect
        .poll(async () => {
          const [phone, part, mileageIn, mileageOut] = await Promise.all([
            left('Phone'),
            left('Part'),
            left('Mileage in'),
            left('Mileage out'),
          ]);
          return [mileageIn.x - phone.x, mileageIn.width - phone.width, mileageOut.x - part.x, mileageOut.width - part.width].map(
            Math.round,
          );
        })
        .toEqual([0, 0, 0, 0]);
    },
    TEST_TIMEOUT,
  );

  test(
    'a quote is kept as typed: 1,250.50 saves as $1,250.50, and what is refused says why',
    async () => {
      const shop = await createShop(server, 'quote');
      const { page } = await signedInPage(browser, shop.owner);
      await page.goto(`/crm/${shop.subdomain}/pipeline`);
      await page.getByRole('button', { name: 'Add New Entry' }).click();
      await dialog(page).getByLabel('Name').fill('Quinn Quote');
      const quote = dialog(page).getByLabel('Quote');
      await quote.fill('12,50');
      // Refused whole, never stripped: the box keeps it and says why.
      await expect.poll(() => quote.inputValue()).toBe('12,50');
      await expect
        .poll(() =>
          dialog(page)
            .getByText(/Quote must be an amount in dollars/)
            .count(),
        )
        .toBe(1);
      await quote.fill('1,250.50');
      await expect
        .poll(() =>
          dialog(page)
            .getByText(/Quote must be an amount in dollars/)
            .count(),
        )
        .toBe(0);
      await dialog(page).getByRole('button', { name: 'Add Entry' }).click();
      await expect.poll(() => page.getByRole('row', { name: /Quinn Quote/ }).textContent(), { timeout: SLOW }).toContain('$1,250.50');
      const listed = await shop.owner.get(`/api/${shop.subdomain}/pipeline`);
      expect(listed.body.items[0].quote).toBe('1250.50');
    },
    TEST_TIMEOUT,
  );

  test(
    'an empty Add Entry is refused: the CSR filled in for you does not count',
    async () => {
      const shop = await createShop(server, 'blank');
      const { page } = await signedInPage(browser, shop.owner);
      await page.goto(`/crm/${shop.subdomain}/pipeline`);
      await page.getByRole('button', { name: 'Add New Entry' }).click();
      await dialog(page).getByRole('button', { name: 'Add Entry' }).click();
      await expect.poll(() => dialog(page).getByText('At least one field must be filled out').count()).toBe(1);
      expect((await shop.owner.get(`/api/${shop.subdomain}/pipeline`)).body.total).toBe(0);
      // No Cancel Job in a dialog for a job that does not exist yet.
      await expect.poll(() => dialog(page).getByRole('button', { name: 'Cancel Job' }).count()).toBe(0);
    },
    TEST_TIMEOUT,
  );

  test(
    'choosing a customer with several vehicles offers them; history names the linked customer',
    async () => {
      const shop = await createShop(server, 'vehicles');
      await postOne(shop.owner, `/api/${shop.subdomain}/customers`, {
        name: 'Vera Vehicles',
        phone: '5552223333',
        vehicles: ['2018 Toyota Camry', '2020 Ford F-150'],
      });
      const { page } = await signedInPage(browser, shop.owner);
      await page.goto(`/crm/${shop.subdomain}/pipeline`);
      await page.getByRole('button', { name: 'Add New Entry' }).click();
      await dialog(page).getByLabel('Name').pressSequentially('Vera', { delay: 30 });
      await page.getByRole('option', { name: /Vera Vehicles/ }).click({ timeout: SLOW });
      const vehicle = dialog(page).getByLabel('Vehicle', { exact: true });
      // Not silently the first one: both are offered.
      await expect.poll(() => dialog(page).getByRole('button', { name: '2020 Ford F-150' }).count()).toBe(1);
      await expect.poll(() => vehicle.inputValue()).toBe('');
      await dialog(page).getByRole('button', { name: '2020 Ford F-150' }).click();
      await expect.poll(() => vehicle.inputValue()).toBe('2020 Ford F-150');
      await dialog(page).getByLabel('Part').fill('Wipers');
      await dialog(page).getByRole('button', { name: 'Add Entry' }).click();
      await page.getByRole('button', { name: /Edit Vera Vehicles/ }).click({ timeout: SLOW });
      await dialog(page).getByRole('button', { name: 'History' }).click();
      await expect
        .poll(
          () =>
            dialog(page)
              .getByRole('list', { name: /Changes/ })
              .textContent(),
          { timeout: SLOW },
        )
        .toContain('Vera Vehicles');
      await expect.poll(() => dialog(page).getByText('Linked customer').count()).toBe(0);
    },
    TEST_TIMEOUT,
  );

  test(
    'a duration outside the list (a calendar resize left 1 h 45 min) reads in words in the entry dialog',
    async () => {
      const shop = await createShop(server, 'durword');
      await postOne(shop.owner, `/api/${shop.subdomain}/pipeline`, {
        name: 'Dora Duration',
        part: 'Hoses',
        appointment: '2030-06-03T15:00:00.000Z',
        duration: 105,
      });
      const { page } = await signedInPage(browser, shop.owner);
      await page.goto(`/crm/${shop.subdomain}/pipeline`);
      await expect.poll(() => page.getByRole('row', { name: /Dora Duration/ }).count(), { timeout: SLOW }).toBe(1);
      await page.getByRole('button', { name: /Edit Dora Duration/ }).click();
      await expect.poll(() => dialog(page).getByLabel('Duration').textContent(), { timeout: SLOW }).toBe('1 h 45 min');
    },
    TEST_TIMEOUT,
  );

  test(
    'a read-only user gets a view of the job, not an edit form without Save',
    async () => {
      const shop = await createShop(server, 'reader');
      await postOne(shop.owner, `/api/${shop.subdomain}/pipeline`, { name: 'Rita Readonly', part: 'Brakes', quote: '89.95' });
      const readerName = unique('reader');
      const readerId = await addUser(shop.owner, { username: readerName, pin: '4321' });
      const perms = await shop.owner.patch(`/api/admin/users/${readerId}/permissions`, { canWrite: false });
      expect(perms.status, perms.text).toBe(200);
      const reader = await signInUser(server, shop.subdomain, readerName, '4321');
      const { page } = await signedInPage(browser, reader);
      await page.goto(`/crm/${shop.subdomain}/pipeline`);
      await expect.poll(() => page.getByRole('row', { name: /Rita Readonly/ }).count(), { timeout: SLOW }).toBe(1);
      // Nothing to add for someone who cannot write.
      await expect.poll(() => page.getByRole('button', { name: 'Add New Entry' }).count()).toBe(0);
      // No Edit pencil and no stage control that looks usable: a View button and a plain stage label.
      await expect.poll(() => page.getByRole('button', { name: /Edit Rita Readonly/ }).count()).toBe(0);
      await expect.poll(() => page.getByRole('combobox', { name: /Stage for/ }).count()).toBe(0);
      await expect.poll(() => page.getByLabel(/Stage for .*Rita Readonly.*: Quote/).count()).toBeGreaterThan(0);
      await page.getByRole('button', { name: /View Rita Readonly/ }).click();
      await expect.poll(() => dialog(page).getByRole('heading').first().textContent()).toBe('View Rita Readonly');
      // The Quote row itself (the repair-order totals below repeat the amount as Total and Balance).
      const quote = dialog(page)
        .getByRole('term')
        .filter({ hasText: /^Quote$/ })
        .locator('xpath=following-sibling::dd[1]');
      await expect.poll(() => quote.textContent()).toBe('$89.95');
      await expect.poll(() => dialog(page).getByRole('textbox').count()).toBe(0);
      await expect.poll(() => dialog(page).getByRole('button', { name: 'Cancel Job' }).count()).toBe(0);
      await expect.poll(() => dialog(page).getByRole('button', { name: 'Save Changes' }).count()).toBe(0);
      // Its footer offers Close (beside the dialog's own X).
      await expect.poll(() => dialog(page).getByRole('button', { name: 'Close', exact: true }).count()).toBe(2);
    },
    TEST_TIMEOUT,
  );

  test(
    "on a 900 px tall screen the dialog's Save stays in view; Cancel Job sits apart from the dialog's Cancel",
    async () => {
      const shop = await createShop(server, 'footer');
      await postOne(shop.owner, `/api/${shop.subdomain}/pipeline`, { name: 'Fay Footer', part: 'Clutch' });
      for (const colorScheme of ['light', 'dark'] as const) {
        const { page } = await signedInPage(browser, shop.owner, { colorScheme });
        await page.setViewportSize({ width: 1280, height: 900 });
        await page.goto(`/crm/${shop.subdomain}/pipeline`);
        await page.getByRole('button', { name: /Edit Fay Footer/ }).click({ timeout: SLOW });
        const save = dialog(page).getByRole('button', { name: 'Save Changes' });
        await save.waitFor();
        await expect.poll(() => save.isVisible()).toBe(true);
        await expect
          .poll(async () => {
            const box = await save.boundingBox();
            return box !== null && box.y + box.height <= 900;
          })
          .toBe(true);
        const cancelJob = await dialog(page).getByRole('button', { name: 'Cancel Job' }).boundingBox();
        const cancel = await dialog(page).getByRole('button', { name: 'Cancel', exact: true }).boundingBox();
        // Not side by side: at least a button's width of space between them.
        expect(Math.abs(cancelJob!.x - cancel!.x)).toBeGreaterThan(cancel!.width + 40);
        await snapViewport(page, `entry-dialog-footer-${colorScheme}`);
      }
      const { page: phone } = await signedInPage(browser, shop.owner, { phone: true });
      await phone.goto(`/crm/${shop.subdomain}/pipeline`);
      await phone
        .getByRole('button', { name: /Fay Footer/ })
        .first()
        .click({ timeout: SLOW });
      await expect.poll(() => dialog(phone).getByRole('button', { name: 'Save Changes' }).isVisible()).toBe(true);
      // The record's four actions share one row above Cancel and Save: the sticky bar takes two rows of the 844 px, not three.
      const bar = dialog(phone).getByRole('button', { name: 'Save Changes' }).locator('xpath=../..');
      await expect.poll(async () => (await bar.boundingBox())?.height ?? 999).toBeLessThan(120);
      for (const name of ['History', 'Messages', 'Cancel Job', 'Delete Entry']) {
        const box = await dialog(phone).getByRole('button', { name, exact: true }).boundingBox();
        expect(box !== null && box.x >= 0 && box.x + box.width <= 390 && box.y + box.height <= 844, name).toBe(true);
      }
      await snapViewport(phone, 'entry-dialog-phone');
    },
    TEST_TIMEOUT,
  );
});
