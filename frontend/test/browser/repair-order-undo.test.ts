import type { Browser, Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import type { TestServer } from '../../../backend/test/support/server.ts';
import { createShop, postOne, serverAndBrowserForFile, signedInPage, SLOW, snap, TEST_TIMEOUT, toastTexts } from './support.ts';

/** Undo of a job's lines and payments from the history panel of its dialog. */
let server: TestServer;
let browser: Browser;
serverAndBrowserForFile((s, b) => ([server, browser] = [s, b]));

/** The history row of this action (newest first), e.g. "Line changed". */
const row = (page: Page, name: string, label: string) =>
  page
    .getByRole('dialog', { name: `History for ${name}` })
    .getByRole('listitem')
    .filter({ has: page.getByText(label, { exact: true }) })
    .first();

describe('undo of lines and payments', () => {
  test(
    'a line change and a payment are undone from the history panel',
    async () => {
      const shop = await createShop(server, 'roundo');
      const jobs = `/api/${shop.subdomain}/pipeline`;
      const customer = await postOne(shop.owner, '/api/customers', { name: 'Uma Undo', phone: '5550001111' });
      const job = await postOne(shop.owner, jobs, { name: 'Uma Undo', customerId: customer.id, makeModel: '2016 Mazda 3' });
      const added = await shop.owner.post(`${jobs}/${job.id}/lines`, { kind: 'part', description: 'Wiper blades', unitPrice: '30' });
      expect(added.status, added.text).toBe(201);
      const line = added.body.lines[0];
      expect((await shop.owner.put(`${jobs}/${job.id}/lines/${line.id}`, { unitPrice: '45' })).status).toBe(200);
      expect((await shop.owner.post(`${jobs}/${job.id}/invoice`, {})).status).toBe(201);
      const paid = await shop.owner.post(`${jobs}/${job.id}/payments`, { amount: '45', method: 'cash' });
      expect(paid.body.stage, paid.text).toBe('Paid');

      const { page } = await signedInPage(browser, shop.owner);
      // The stage board's card shows the lines' total and, paid up, its balance as Paid.
      await page.goto(`/crm/${shop.subdomain}/pipeline?view=board`);
      const card = page.getByRole('region', { name: 'Stage board' }).locator('section[data-stage="Paid"]');
      await expect.poll(() => card.textContent(), { timeout: SLOW }).toContain('$45.00');
      await expect.poll(() => card.locator('[data-card-balance]').textContent(), { timeout: SLOW }).toContain('Paid');
      await page.goto(`/crm/${shop.subdomain}/pipeline`);
      const pipelineRow = page.getByRole('row', { name: /Uma Undo/ });
      await expect.poll(() => pipelineRow.textContent(), { timeout: SLOW }).toContain('$45.00');
      await page.getByRole('button', { name: 'Edit Uma Undo' }).first().click();
      await page.getByRole('dialog', { name: 'Edit Uma Undo' }).getByRole('button', { name: 'History' }).click();

      // The payment: undone by a refund of it; the job is Invoiced again with its balance due.
      const payment = row(page, 'Uma Undo', 'Payment recorded');
      await expect.poll(() => payment.getByRole('button', { name: /^Revert the change of/ }).count(), { timeout: SLOW }).toBe(1);
      await snap(page, 'ro-undo-history');
      await payment.getByRole('button', { name: /^Revert the change of/ }).click();
      await expect.poll(() => toastTexts(page), { timeout: SLOW }).toContain('Change reverted');
      await expect.poll(() => row(page, 'Uma Undo', 'Refund recorded').getByTestId('reverted-note').count(), { timeout: SLOW }).toBe(1);
      await expect
        .poll(async () => (await shop.owner.get(`${jobs}/${job.id}`)).body, { timeout: SLOW })
        .toMatchObject({ stage: 'Invoiced', totals: { balance: '45.00' } });

      // The price change: the invoice issued after it froze it; the row offers no revert and says so.
      const frozen = row(page, 'Uma Undo', 'Line changed');
      await expect.poll(() => frozen.getByTestId('revert-refused').textContent(), { timeout: SLOW }).toContain('froze its lines');
      await expect.poll(() => frozen.getByRole('button', { name: /^Revert the change of/ }).count()).toBe(0);

      // The board and the pipeline row show the balance due again.
      await page.goto(`/crm/${shop.subdomain}/pipeline?view=board`);
      const invoiced = page.getByRole('region', { name: 'Stage board' }).locator('section[data-stage="Invoiced"]');
      await expect.poll(() => invoiced.locator('[data-card-balance]').textContent(), { timeout: SLOW }).toContain('$45.00');
      await page.goto(`/crm/${shop.subdomain}/pipeline`);
      await expect.poll(() => pipelineRow.locator('td').allTextContents(), { timeout: SLOW }).toContain('$45.00');

      // The customer's page lists the invoice and the balance due.
      await page.goto(`/crm/${shop.subdomain}/customers/${customer.id}`);
      const balance = page.locator('[data-customer-balance]');
      await expect.poll(() => balance.textContent(), { timeout: SLOW }).toContain('1 invoice, $45.00 invoiced');
      await expect.poll(() => balance.textContent(), { timeout: SLOW }).toContain('Balance due $45.00');

      // The shop's settings name no shop: the invoice is headed with what the shop is called, as its PDF is.
      await page.goto(`/crm/${shop.subdomain}/pipeline/${job.id}/invoice`);
      const heading = page.locator('article header p').first();
      await expect.poll(() => heading.textContent(), { timeout: SLOW }).toBe(`${shop.subdomain} Auto`);
    },
    TEST_TIMEOUT,
  );

  test(
    'a line change before any invoice is undone and the lines show the old price',
    async () => {
      const shop = await createShop(server, 'roundoline');
      const jobs = `/api/${shop.subdomain}/pipeline`;
      const job = await postOne(shop.owner, jobs, { name: 'Lou Lines', makeModel: '2014 VW Golf' });
      const added = await shop.owner.post(`${jobs}/${job.id}/lines`, { kind: 'part', description: 'Cabin filter', unitPrice: '20' });
      expect(added.status, added.text).toBe(201);
      const line = added.body.lines[0];
      expect((await shop.owner.put(`${jobs}/${job.id}/lines/${line.id}`, { unitPrice: '35' })).status).toBe(200);

      const { page } = await signedInPage(browser, shop.owner);
      await page.goto(`/crm/${shop.subdomain}/pipeline`);
      await page.getByRole('button', { name: 'Edit Lou Lines' }).first().click();
      const edit = page.getByRole('dialog', { name: 'Edit Lou Lines' });
      await edit.getByRole('button', { name: 'History' }).click();
      const changed = row(page, 'Lou Lines', 'Line changed');
      await expect.poll(() => changed.getByRole('button', { name: /^Revert the change of/ }).count(), { timeout: SLOW }).toBe(1);
      await changed.getByRole('button', { name: /^Revert the change of/ }).click();
      await expect.poll(() => toastTexts(page), { timeout: SLOW }).toContain('Change reverted');
      await expect.poll(async () => (await shop.owner.get(`${jobs}/${job.id}`)).body.lines[0].unitPrice, { timeout: SLOW }).toBe('20.00');
      await expect.poll(() => row(page, 'Lou Lines', 'Line changed').getByTestId('reverted-note').count(), { timeout: SLOW }).toBe(1);
    },
    TEST_TIMEOUT,
  );
});
