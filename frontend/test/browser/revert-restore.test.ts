import type { Browser } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import type { TestServer } from '../../../backend/test/support/server.ts';
import { createShop, postOne, serverAndBrowserForFile, signedInPage, SLOW, snap, TEST_TIMEOUT, toastTexts } from './support.ts';

// One server and one browser for the file; every test makes its own instance, records and browser context.
let server: TestServer;
let browser: Browser;

serverAndBrowserForFile((s, b) => ([server, browser] = [s, b]));

// Toast texts are counted with toBeGreaterThan(0): Radix also reads them out through a hidden copy.
describe('undo from history and restore of deleted records', () => {
  test(
    "reverts a customer's change from its history; the history shows the revert",
    async () => {
      const shop = await createShop(server, 'revertui');
      const customer = await postOne(shop.owner, '/api/customers', { name: 'Ada Lovelace', email: 'ada@example.com' });
      const updated = await shop.owner.put(`/api/customers/${customer.id}`, { email: 'ada@wrong.example' });
      expect(updated.status, updated.text).toBe(200);

      const { page } = await signedInPage(browser, shop.owner);
      await page.goto(`/crm/${shop.subdomain}/customers/${customer.id}`);
      await expect.poll(() => page.getByText('ada@wrong.example').count(), { timeout: SLOW }).toBeGreaterThan(0);
      const revert = page.getByRole('button', { name: /^Revert the change of/ });
      await expect.poll(() => revert.count(), { timeout: SLOW }).toBe(1);
      await revert.click();

      await expect.poll(() => toastTexts(page), { timeout: SLOW }).toContain('Change reverted');
      await expect.poll(() => page.getByTestId('reverted-note').count(), { timeout: SLOW }).toBe(1);
      await expect
        .poll(async () => (await shop.owner.get(`/api/customers/${customer.id}`)).body.email, { timeout: SLOW })
        .toBe('ada@example.com');

      // A change that a later change overwrote offers no revert, and says why.
      const again = await shop.owner.put(`/api/customers/${customer.id}`, { email: 'one@example.com' });
      expect(again.status).toBe(200);
      expect((await shop.owner.put(`/api/customers/${customer.id}`, { email: 'two@example.com' })).status).toBe(200);
      await page.reload();
      // Newest first: only the change to two@example.com can be reverted; the three before it set the email it overwrote.
      const refused = page.getByTestId('revert-refused');
      await expect.poll(() => refused.count(), { timeout: SLOW }).toBe(3);
      await expect.poll(() => page.getByRole('button', { name: /^Revert the change of/ }).count()).toBe(1);
      await expect.poll(() => refused.first().textContent()).toContain('Email changed again later');
      await snap(page, 'revert-customer-history');
    },
    TEST_TIMEOUT,
  );

  test(
    "reverts a job's stage move from the entry dialog's history",
    async () => {
      const shop = await createShop(server, 'revertjob');
      const jobs = `/api/${shop.subdomain}/pipeline`;
      const job = await postOne(shop.owner, jobs, { name: 'Dana Diesel', part: 'Brake pads', quote: '1250' });
      expect((await shop.owner.patch(`${jobs}/${job.id}/stage`, { stage: 'Scheduled' })).status).toBe(200);

      const { page } = await signedInPage(browser, shop.owner);
      await page.goto(`/crm/${shop.subdomain}/pipeline`);
      await page.getByRole('button', { name: 'Edit Dana Diesel' }).first().click();
      const edit = page.getByRole('dialog', { name: 'Edit Dana Diesel' });
      await edit.getByRole('button', { name: 'History' }).click();
      const history = page.getByRole('dialog', { name: 'History for Dana Diesel' });
      const revert = history.getByRole('button', { name: /^Revert the change of/ });
      await expect.poll(() => revert.count(), { timeout: SLOW }).toBe(1);
      await snap(page, 'revert-job-history');
      await revert.click();
      await expect.poll(() => toastTexts(page), { timeout: SLOW }).toContain('Change reverted');
      await expect.poll(() => history.getByTestId('reverted-note').count(), { timeout: SLOW }).toBe(1);
      await expect.poll(async () => (await shop.owner.get(`${jobs}/${job.id}`)).body.stage, { timeout: SLOW }).toBe('Quote');
    },
    TEST_TIMEOUT,
  );

  test(
    'an admin restores a deleted customer from Deleted records, and its jobs and vehicles come back with it, a VIN taken meanwhile named',
    async () => {
      const shop = await createShop(server, 'restoreui');
      const customer = await postOne(shop.owner, '/api/customers', { name: 'Grace Hopper', phone: '5551230000' });
      const jobs = `/api/${shop.subdomain}/pipeline`;
      const first = await postOne(shop.owner, jobs, { name: 'Grace Hopper', customerId: customer.id, part: 'Door panel' });
      const second = await postOne(shop.owner, jobs, { name: 'Grace Hopper', customerId: customer.id, part: 'Side mirror' });
      const vehicles = `/api/${shop.subdomain}/customers`;
      const vin = '1HGCM82633A004352';
      await postOne(shop.owner, `${vehicles}/${customer.id}/vehicles`, { year: 2003, make: 'Honda', model: 'Accord', vin });
      await postOne(shop.owner, `${vehicles}/${customer.id}/vehicles`, { year: 2012, make: 'Toyota', model: 'Corolla' });
      const removed = await shop.owner.delete(`/api/customers/${customer.id}`);
      expect(removed.body.jobsDeleted, removed.text).toBe(2);
      // While Grace is deleted, her Accord's VIN is free, and another customer's car takes it.
      const otto = await postOne(shop.owner, '/api/customers', { name: 'Otto Other' });
      await postOne(shop.owner, `${vehicles}/${otto.id}/vehicles`, { make: 'Honda', model: 'Accord', vin });

      const { page } = await signedInPage(browser, shop.owner);
      await page.goto(`/crm/${shop.subdomain}/admin`);
      await page.getByRole('link', { name: 'Deleted records' }).click();
      await page.waitForURL('**/admin/deleted');
      const rows = page.getByTestId('deleted-record');
      await expect.poll(() => rows.count(), { timeout: SLOW }).toBe(3);
      await expect.poll(() => page.getByText('Deleted by Owner', { exact: false }).count()).toBe(3);
      await expect.poll(() => page.getByText('Restore Grace Hopper to bring it back').count()).toBe(2);
      await snap(page, 'deleted-records-desktop-light');
      // The same list on a phone and in the dark theme, for people to look at.
      for (const [phone, colorScheme] of [
        [false, 'dark'],
        [true, 'light'],
        [true, 'dark'],
      ] as const) {
        const { page: other } = await signedInPage(browser, shop.owner, { phone, colorScheme });
        await other.goto(`/crm/${shop.subdomain}/admin/deleted`);
        await expect.poll(() => other.getByTestId('deleted-record').count(), { timeout: SLOW }).toBe(3);
        await snap(other, `deleted-records-${phone ? 'phone' : 'desktop'}-${colorScheme}`);
      }

      await page.getByRole('button', { name: /^Restore Customer \d+ · Grace Hopper$/ }).click();
      const back =
        'Grace Hopper is back with 2 jobs and 2 vehicles. ' +
        `2003 Honda Accord came back without its VIN ${vin}: that VIN is on Honda Accord of Otto Other now.`;
      await expect.poll(() => page.getByText(back).count(), { timeout: SLOW }).toBeGreaterThan(0);
      await expect.poll(() => page.getByText('Nothing deleted').count(), { timeout: SLOW }).toBe(1);

      for (const job of [first, second]) expect((await shop.owner.get(`${jobs}/${job.id}`)).status).toBe(200);
      await page.goto(`/crm/${shop.subdomain}/customers/${customer.id}`);
      await expect.poll(() => page.getByText('Door panel').count(), { timeout: SLOW }).toBeGreaterThan(0);
      await expect.poll(() => page.getByText('Side mirror').count(), { timeout: SLOW }).toBeGreaterThan(0);
      await expect.poll(() => page.getByText('2012 Toyota Corolla').count(), { timeout: SLOW }).toBeGreaterThan(0);
    },
    TEST_TIMEOUT,
  );
});
