import type { Browser } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import type { TestServer } from '../../../backend/test/support/server.ts';
import { createShop, postOne, serverAndBrowserForFile, signedInPage, SLOW, snap, TEST_TIMEOUT } from './support.ts';

/** A deposit larger than the lines now come to reads as a refund the shop owes, on every screen. */
let server: TestServer;
let browser: Browser;
serverAndBrowserForFile((s, b) => ([server, browser] = [s, b]));

describe('a negative balance', () => {
  test(
    'reads "Refund due $30.00" on the job, the pipeline row, the invoice and the customer, never "-$30.00"',
    async () => {
      const shop = await createShop(server, 'refunddue');
      const jobs = `/api/${shop.subdomain}/pipeline`;
      const job = await postOne(shop.owner, jobs, { name: 'Rhea Refund', makeModel: '2015 Honda Fit' });
      const added = await shop.owner.post(`${jobs}/${job.id}/lines`, { kind: 'part', description: 'Alternator', unitPrice: '150' });
      expect(added.status, added.text).toBe(201);
      expect((await shop.owner.post(`${jobs}/${job.id}/invoice`, {})).status).toBe(201);
      expect((await shop.owner.post(`${jobs}/${job.id}/payments`, { amount: '50', method: 'cash' })).status).toBe(201);
      expect((await shop.owner.put(`${jobs}/${job.id}/lines/${added.body.lines[0].id}`, { unitPrice: '20' })).status).toBe(200);
      const reissued = await shop.owner.post(`${jobs}/${job.id}/invoice`, {});
      expect(reissued.body.totals.balance, reissued.text).toBe('-30.00');

      const { page } = await signedInPage(browser, shop.owner);
      await page.goto(`/crm/${shop.subdomain}/pipeline?job=${job.id}`);
      const dialog = page.getByRole('dialog', { name: 'Edit Rhea Refund' });
      await expect.poll(() => dialog.locator('[data-total="balance"]').textContent(), { timeout: SLOW }).toBe('$30.00');
      await expect.poll(() => dialog.textContent()).toContain('Refund due$30.00');
      await expect.poll(() => dialog.locator('[data-balance]').textContent()).toBe('$30.00');
      await expect.poll(() => dialog.textContent()).not.toContain('-$30.00');
      await snap(page, 'refund-due-job');

      await page.goto(`/crm/${shop.subdomain}/pipeline`);
      const row = page.getByRole('row', { name: /Rhea Refund/ });
      await expect.poll(() => row.textContent(), { timeout: SLOW }).toContain('Refund due $30.00');

      await page.goto(`/crm/${shop.subdomain}/pipeline/${job.id}/invoice`);
      const invoice = page.locator('article');
      await expect.poll(() => invoice.textContent(), { timeout: SLOW }).toContain('Refund due$30.00');
      await expect.poll(() => invoice.textContent()).not.toContain('-$30.00');

      await page.goto(`/crm/${shop.subdomain}/customers/${job.customerId}`);
      const balance = page.locator('[data-customer-balance]');
      await expect.poll(() => balance.textContent(), { timeout: SLOW }).toContain('Refund due $30.00');
      await expect.poll(() => page.getByRole('main').textContent()).toContain('Refund due $30.00');
      await expect.poll(() => page.getByRole('main').textContent()).not.toContain('-$30.00');
    },
    TEST_TIMEOUT,
  );
});
