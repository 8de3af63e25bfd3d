import type { Browser, Locator, Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import type { TestServer } from '../../../backend/test/support/server.ts';
import { createShop, newPage, postOne, serverAndBrowserForFile, signedInPage, SLOW, snap, TEST_TIMEOUT } from './support.ts';

/**
 * Repair orders on the screens: lines typed into the job dialog, the estimate sent and
 * answered by the customer in a browser of their own (no session), the invoice, the
 * payment that makes the job Paid; and the lines editor's keyboard on its own.
 */
let server: TestServer;
let browser: Browser;
serverAndBrowserForFile((s, b) => ([server, browser] = [s, b]));

const dialog = (page: Page) => page.getByRole('dialog');
const line = (page: Page, index: number) => dialog(page).getByRole('list', { name: 'Lines' }).getByRole('listitem').nth(index);
const total = (page: Page, name: string) => dialog(page).locator(`[data-total="${name}"]`);

/** A shop whose rates make the sums easy to check: labor $100/h, parts and fees taxed at 10 %, labor untaxed. */
async function shopWithRates(prefix: string) {
  const shop = await createShop(server, prefix);
  const res = await shop.owner.put(`/api/${shop.subdomain}/settings`, {
    shopName: 'Torque & Sons',
    address: '12 Main St',
    phone: '555-0100',
    laborRate: '100',
    partsTaxRate: '10',
    laborTaxRate: '0',
    terms: 'Payment due on pickup.',
  });
  if (res.status !== 200) throw new Error(`PUT settings failed: ${res.status} ${res.text}`);
  return shop;
}

/** Opens a job's dialog from the pipeline table. */
async function openJob(page: Page, name: string): Promise<void> {
  await page.getByRole('button', { name: `Edit ${name}` }).click();
  await expect.poll(() => dialog(page).getByRole('heading', { name: 'Lines', exact: true }).count(), { timeout: SLOW }).toBe(1);
}

async function fill(box: Locator, value: string): Promise<void> {
  await box.fill(value);
}

describe('repair orders on the screens', () => {
  test(
    'the whole cycle: new job → lines → estimate sent → the customer approves without a session → invoice → payment → Paid',
    async () => {
      const shop = await shopWithRates('cycle');
      const { page } = await signedInPage(browser, shop.owner);
      await page.goto(`/crm/${shop.subdomain}/pipeline`);

      // A new job, from the screen.
      await page.getByRole('button', { name: 'Add New Entry' }).click();
      await dialog(page).getByLabel('Name').fill('Rita Repair');
      await dialog(page).getByRole('button', { name: 'Add Entry' }).click();
      await expect.poll(() => page.getByRole('row', { name: /Rita Repair/ }).count(), { timeout: SLOW }).toBe(1);
      await openJob(page, 'Rita Repair');

      // A part: the totals follow the typing before anything is saved.
      await dialog(page).getByRole('group', { name: 'Add a line' }).getByRole('button', { name: 'Part' }).click();
      await fill(line(page, 0).getByLabel('Description'), 'Brake pads');
      await fill(line(page, 0).getByLabel('Part number'), 'BP-220');
      await fill(line(page, 0).getByLabel('Qty'), '2');
      await fill(line(page, 0).getByLabel('Unit price'), '45.5');
      await expect.poll(() => total(page, 'parts').textContent()).toBe('$91.00');
      await expect.poll(() => total(page, 'tax').textContent()).toBe('$9.10');
      // Enter saves it and starts the next part line, where the cursor is.
      await line(page, 0).getByLabel('Unit price').press('Enter');
      await expect
        .poll(
          () =>
            line(page, 1)
              .getByLabel('Description')
              .evaluate((el) => el === document.activeElement),
          // The next line comes after the save's answer: slow on a busy machine.
          { timeout: SLOW },
        )
        .toBe(true);

      // Labor at the shop's rate, then a disposal fee the customer will decline.
      await dialog(page).getByRole('group', { name: 'Add a line' }).getByRole('button', { name: 'Labor' }).click();
      await fill(line(page, 1).getByLabel('Description'), 'Replace front pads');
      await fill(line(page, 1).getByLabel('Hours'), '1.5');
      await line(page, 1).getByLabel('Hours').press('Enter');
      await dialog(page).getByRole('group', { name: 'Add a line' }).getByRole('button', { name: 'Fee' }).click();
      await fill(line(page, 2).getByLabel('Description'), 'Disposal');
      await fill(line(page, 2).getByLabel('Amount'), '5');
      await line(page, 2).getByLabel('Amount').press('Enter');
      await expect.poll(() => total(page, 'total').textContent()).toBe('$255.60');
      const job = (await shop.owner.get(`/api/${shop.subdomain}/pipeline`)).body.items[0];
      await expect
        .poll(async () => (await shop.owner.get(`/api/${shop.subdomain}/pipeline/${job.id}`)).body.lines.length, { timeout: SLOW })
        .toBe(3);

      // Send the estimate: the link shows, to copy.
      await dialog(page).getByRole('button', { name: 'Send estimate' }).click();
      const linkBox = dialog(page).getByLabel('Link for the customer');
      await expect.poll(() => linkBox.inputValue(), { timeout: SLOW }).toMatch(/\/estimate\/[^/]+$/);
      const link = new URL(await linkBox.inputValue());

      // The customer, in a browser of their own with no session.
      const customer = await newPage(browser, { baseURL: server.url, phone: true });
      await customer.page.goto(link.pathname);
      await expect.poll(() => customer.page.getByText('Torque & Sons').count(), { timeout: SLOW }).toBeGreaterThan(0);
      await expect.poll(() => customer.page.getByText(/Version 1, sent/).count()).toBe(1);
      await customer.page.getByRole('radiogroup', { name: 'Your decision on Disposal' }).getByText('Decline').click();
      // What the approved lines come to, tax included: the job's total once the decision is in.
      await expect.poll(() => customer.page.locator('[data-approved-total]').textContent()).toBe('$250.10');
      await customer.page.getByLabel('Your name').fill('Rita Repair');
      await snap(customer.page, 'repair-orders-public-estimate-phone');
      await customer.page.getByRole('button', { name: 'Confirm my decision' }).click();
      await expect.poll(() => customer.page.getByText('Thank you, Rita Repair.').count(), { timeout: SLOW }).toBe(1);

      // Staff see it at once, without reloading: who decided, and the declined line marked.
      await expect
        .poll(
          () =>
            dialog(page)
              .getByText(/Rita Repair answered on/)
              .count(),
          { timeout: SLOW },
        )
        .toBe(1);
      await expect.poll(() => line(page, 2).getAttribute('data-line-status')).toBe('declined');
      await expect.poll(() => total(page, 'total').textContent()).toBe('$250.10');
      // Nothing changed since it was answered: no new version to send (it would ask the same again).
      await expect.poll(() => dialog(page).getByRole('button', { name: 'Send new version' }).count()).toBe(0);

      // Invoice, then the payment of the balance: the job is Paid.
      await dialog(page).getByRole('button', { name: 'Create invoice' }).click();
      await expect
        .poll(
          () =>
            dialog(page)
              .getByRole('heading', { name: /^Invoice #\d+$/ })
              .count(),
          { timeout: SLOW },
        )
        .toBe(1);
      await dialog(page).locator('#payment-amount').fill('250.10');
      await dialog(page).getByRole('button', { name: 'Record payment' }).click();
      await expect.poll(() => dialog(page).locator('[data-balance]').textContent(), { timeout: SLOW }).toBe('$0.00');
      await expect
        .poll(async () => (await shop.owner.get(`/api/${shop.subdomain}/pipeline/${job.id}`)).body.stage, { timeout: SLOW })
        .toBe('Paid');
      await snap(page, 'repair-orders-dialog-paid');

      // The takings of the day count the card payment.
      await page.keyboard.press('Escape');
      const discard = page.getByRole('button', { name: 'Close Without Saving' });
      if (await discard.count()) await discard.click();
      await page.goto(`/crm/${shop.subdomain}/reports/takings`);
      await expect.poll(() => page.locator('[data-figure="card"]').textContent(), { timeout: SLOW }).toBe('$250.10');
      await expect.poll(() => page.getByRole('link', { name: 'Export CSV' }).getAttribute('href')).toMatch(/takings\.csv\?from=/);
      // The period reads as days people read ('Thu, Nov 26, 2026'), never a raw 2026-11-26.
      const period = page.getByText(/in the shop's time/);
      await expect.poll(() => period.textContent()).toMatch(/^[A-Z][a-z]{2}, [A-Z][a-z]{2} \d{1,2}, \d{4}, in the shop's time/);
      await expect.poll(() => period.textContent()).not.toMatch(/\d{4}-\d\d-\d\d/);
      // The footer's year is this year's.
      await expect.poll(() => page.locator('footer').textContent()).toContain(`© ${new Date().getFullYear()} `);

      // The invoice page's job reference leads back to that job's dialog.
      await page.goto(`/crm/${shop.subdomain}/pipeline/${job.id}/invoice`);
      const back = page.getByRole('link', { name: /^(Job #\d+|Open the job)$/ });
      await expect.poll(() => back.count(), { timeout: SLOW }).toBe(1);
      await back.click();
      await expect.poll(() => new URL(page.url()).searchParams.get('job'), { timeout: SLOW }).toBe(job.id);
      await expect.poll(() => dialog(page).getByRole('heading', { name: 'Lines', exact: true }).count(), { timeout: SLOW }).toBe(1);
    },
    TEST_TIMEOUT * 2,
  );

  test(
    'the lines editor: a refused line says why and is not saved; Alt+↓ moves a line; removing one updates the totals',
    async () => {
      const shop = await shopWithRates('lines');
      const job = await postOne(shop.owner, `/api/${shop.subdomain}/pipeline`, { name: 'Lenny Lines' });
      const { page } = await signedInPage(browser, shop.owner);
      await page.goto(`/crm/${shop.subdomain}/pipeline`);
      await openJob(page, 'Lenny Lines');

      // A part without a price: the server's words under the box, nothing saved.
      await dialog(page).getByRole('group', { name: 'Add a line' }).getByRole('button', { name: 'Part' }).click();
      await fill(line(page, 0).getByLabel('Description'), 'Oil filter');
      await line(page, 0).getByLabel('Description').press('Enter');
      await expect.poll(() => line(page, 0).getByText('A part line needs a unit price').count()).toBe(1);
      expect((await shop.owner.get(`/api/${shop.subdomain}/pipeline/${job.id}`)).body.lines).toEqual([]);
      await fill(line(page, 0).getByLabel('Unit price'), '12');
      await line(page, 0).getByLabel('Unit price').press('Enter');
      await fill(line(page, 1).getByLabel('Description'), 'Oil, 5 qt');
      await fill(line(page, 1).getByLabel('Unit price'), '30');
      await line(page, 1).getByLabel('Unit price').press('Enter');
      await expect
        .poll(
          async () =>
            (await shop.owner.get(`/api/${shop.subdomain}/pipeline/${job.id}`)).body.lines.map(
              (l: { description: string }) => l.description,
            ),
          {
            timeout: SLOW,
          },
        )
        .toEqual(['Oil filter', 'Oil, 5 qt']);

      // Alt+↓ on the first line moves it below the second.
      await line(page, 0).getByLabel('Description').focus();
      await page.keyboard.press('Alt+ArrowDown');
      await expect
        .poll(
          async () =>
            (await shop.owner.get(`/api/${shop.subdomain}/pipeline/${job.id}`)).body.lines.map(
              (l: { description: string }) => l.description,
            ),
          {
            timeout: SLOW,
          },
        )
        .toEqual(['Oil, 5 qt', 'Oil filter']);
      await expect.poll(() => line(page, 1).getByLabel('Description').inputValue()).toBe('Oil filter');

      // Totals as typed: a price changed shows at once, before it is saved.
      await fill(line(page, 0).getByLabel('Unit price'), '40');
      await expect.poll(() => total(page, 'parts').textContent()).toBe('$52.00');
      await line(page, 0).getByLabel('Unit price').press('Enter');

      // Remove the filter: gone from the job and from the totals.
      await line(page, 1).getByRole('button', { name: 'Remove Oil filter' }).click();
      await expect.poll(() => total(page, 'parts').textContent(), { timeout: SLOW }).toBe('$40.00');
      await expect.poll(() => total(page, 'total').textContent()).toBe('$44.00');
      await expect
        .poll(async () => (await shop.owner.get(`/api/${shop.subdomain}/pipeline/${job.id}`)).body.lines.length, { timeout: SLOW })
        .toBe(1);
    },
    TEST_TIMEOUT,
  );

  test(
    'a revoked estimate link says so to the customer',
    async () => {
      const shop = await shopWithRates('revoke');
      const job = await postOne(shop.owner, `/api/${shop.subdomain}/pipeline`, { name: 'Remy Revoke' });
      const read = async () => shop.owner.get(`/api/${shop.subdomain}/pipeline/${job.id}`);
      const added = await shop.owner.post(
        `/api/${shop.subdomain}/pipeline/${job.id}/lines`,
        { kind: 'part', description: 'Wiper', unitPrice: '9.99' },
        {
          'If-Match': (await read()).headers.get('etag')!,
        },
      );
      expect(added.status).toBe(201);
      const sent = await shop.owner.post(
        `/api/${shop.subdomain}/pipeline/${job.id}/estimate/send`,
        {},
        { 'If-Match': added.headers.get('etag')! },
      );
      expect(sent.status).toBeLessThan(300);
      const { page } = await signedInPage(browser, shop.owner);
      await page.goto(`/crm/${shop.subdomain}/pipeline`);
      await openJob(page, 'Remy Revoke');
      await dialog(page).getByRole('button', { name: 'Revoke link' }).click();
      await expect.poll(() => dialog(page).getByText('Link revoked').count(), { timeout: SLOW }).toBe(1);
      const customer = await newPage(browser, { baseURL: server.url });
      await customer.page.goto(sent.body.link);
      await expect.poll(() => customer.page.getByText(/withdrawn this estimate link/).count(), { timeout: SLOW }).toBe(1);
      await expect.poll(() => customer.page.getByRole('button', { name: 'Confirm my decision' }).count()).toBe(0);
    },
    TEST_TIMEOUT,
  );

  test(
    'the invoice page of a job not invoiced yet says so and leads back to the job, not to a dead end',
    async () => {
      const shop = await shopWithRates('noinvoice');
      const job = await postOne(shop.owner, `/api/${shop.subdomain}/pipeline`, { name: 'Nora Notyet' });
      const { page } = await signedInPage(browser, shop.owner);
      await page.goto(`/crm/${shop.subdomain}/pipeline/${job.id}/invoice`);
      await expect.poll(() => page.getByText('This job has not been invoiced yet.').count(), { timeout: SLOW }).toBe(1);
      await page.getByRole('link', { name: 'Open the job' }).click();
      await expect.poll(() => new URL(page.url()).searchParams.get('job'), { timeout: SLOW }).toBe(job.id);
      await expect.poll(() => dialog(page).getByRole('heading', { name: 'Lines', exact: true }).count(), { timeout: SLOW }).toBe(1);
    },
    TEST_TIMEOUT,
  );

  test(
    'the estimate of a job priced with a quote and no lines shows the quote as its item, not a breakdown of zeros',
    async () => {
      const shop = await shopWithRates('quoteonly');
      const job = await postOne(shop.owner, `/api/${shop.subdomain}/pipeline`, { name: 'Quincy Quote', part: 'Brake pads', quote: '250' });
      const { page } = await signedInPage(browser, shop.owner);
      await page.goto(`/crm/${shop.subdomain}/pipeline/${job.id}/estimate`);
      const item = page.getByRole('row', { name: /Brake pads/ });
      await expect.poll(() => item.count(), { timeout: SLOW }).toBe(1);
      await expect.poll(() => item.textContent()).toBe('Brake padsQuoted price$250.00');
      await expect.poll(() => page.locator('dt').allTextContents()).toEqual(['Total']);
      await expect.poll(() => page.locator('dd').allTextContents()).toEqual(['$250.00']);
    },
    TEST_TIMEOUT,
  );
  test(
    'on a phone the document keeps a part number on one line, not broken at its hyphen',
    async () => {
      const shop = await shopWithRates('partno');
      const job = await postOne(shop.owner, `/api/${shop.subdomain}/pipeline`, { name: 'Pia Partno', part: 'Water pump' });
      await postOne(shop.owner, `/api/${shop.subdomain}/pipeline/${job.id}/lines`, {
        kind: 'part',
        description: 'Water pump',
        partNumber: 'P-1999',
        quantity: '2',
        unitPrice: '51.95',
      });
      const { page } = await signedInPage(browser, shop.owner, { phone: true });
      await page.goto(`/crm/${shop.subdomain}/pipeline/${job.id}/estimate`);
      const partNumber = page.getByText('(P-1999)', { exact: true });
      await expect.poll(() => partNumber.count(), { timeout: SLOW }).toBe(1);
      // One line box: its height is one line's, whatever the column's width.
      await expect
        .poll(() => partNumber.evaluate((element) => element.getClientRects().length === 1 && element.getBoundingClientRect().height < 24))
        .toBe(true);
    },
    TEST_TIMEOUT,
  );
});
