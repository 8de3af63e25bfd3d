import type { Browser, Locator, Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import type { TestServer } from '../../../backend/test/support/server.ts';
import { createShop, postOne, serverAndBrowserForFile, signedInPage, SLOW, snap, snapViewport, TEST_TIMEOUT } from './support.ts';

/**
 * One customer per person: the job dialog, the customer form and a service request's
 * conversion offer the existing customers with the same name, phone or email before a new
 * one is made (Use this customer / Create new anyway).
 */
let server: TestServer;
let browser: Browser;
serverAndBrowserForFile((s, b) => ([server, browser] = [s, b]));

async function choose(page: Page, trigger: Locator, option: string | RegExp): Promise<void> {
  await trigger.click();
  await page.getByRole('option', { name: option }).click();
  await expect.poll(() => page.getByRole('listbox').count()).toBe(0);
}

const offerOf = (scope: Page | Locator) => scope.getByRole('region', { name: /Already a customer\?/ });

describe('duplicate customers are offered before a new one is made', () => {
  test(
    'the job dialog: a name that matches offers the customer (Use this customer links it); a phone that matches stops Add Entry until Create new anyway',
    async () => {
      const shop = await createShop(server, 'dupjob');
      const base = `/api/${shop.subdomain}`;
      const nora = await postOne(shop.owner, `${base}/customers`, { name: 'Nora Nash', phone: '5550102020' });
      const { page } = await signedInPage(browser, shop.owner);
      await page.goto(`/crm/${shop.subdomain}/pipeline`);
      await page.getByRole('button', { name: 'Add New Entry' }).click({ timeout: SLOW });
      const dialog = page.getByRole('dialog', { name: 'Add New Entry' });

      // The same name in other case and spacing: offered while typing.
      await dialog.getByLabel('Name', { exact: true }).fill('  nora   NASH ');
      // Away from the box: its suggestion list closes.
      await dialog.getByLabel('Part').click();
      const offer = offerOf(dialog);
      await expect.poll(() => offer.textContent(), { timeout: SLOW }).toContain('same name');
      await snapViewport(page, 'customer-matches-job-dialog');
      await offer.getByRole('button', { name: 'Use this customer: Nora Nash' }).click();
      await expect.poll(() => dialog.getByText(/Linked to customer/).textContent()).toContain('Nora Nash');
      await expect.poll(() => offer.count()).toBe(0);
      await dialog.getByLabel('Part').fill('Brake pads');
      await dialog.getByRole('button', { name: 'Add Entry' }).click();
      await expect.poll(() => dialog.count(), { timeout: SLOW }).toBe(0);
      let jobs = (await shop.owner.get(`${base}/pipeline`)).body.items as Array<{ name: string; customerId: string | null }>;
      expect(jobs).toHaveLength(1);
      expect(jobs[0]!.customerId).toBe(nora.id);

      // Another name, Nora's phone: Add Entry asks first; Create new anyway lets it make a customer.
      await page.getByRole('button', { name: 'Add New Entry' }).click();
      await dialog.getByLabel('Name', { exact: true }).fill('Norbert Nash');
      await dialog.getByLabel('Phone').fill('5550102020');
      await dialog.getByLabel('Part').fill('Wipers');
      await dialog.getByRole('button', { name: 'Add Entry' }).click();
      await expect.poll(() => offer.getByRole('alert').textContent(), { timeout: SLOW }).toContain('Create new anyway');
      await expect.poll(() => offer.textContent()).toContain('same phone');
      expect((await shop.owner.get(`${base}/customers`)).body.items).toHaveLength(1);
      await offer.getByRole('button', { name: 'Create new anyway' }).click();
      await expect.poll(() => offer.count()).toBe(0);
      await dialog.getByRole('button', { name: 'Add Entry' }).click();
      await expect.poll(() => dialog.count(), { timeout: SLOW }).toBe(0);
      jobs = (await shop.owner.get(`${base}/pipeline`)).body.items;
      const norbert = jobs.find((job) => job.name === 'Norbert Nash');
      expect(norbert?.customerId).toBeTruthy();
      expect(norbert?.customerId).not.toBe(nora.id);
    },
    TEST_TIMEOUT,
  );

  test(
    'the customer form: an email that matches is offered; Use this customer opens that customer instead of making one',
    async () => {
      const shop = await createShop(server, 'dupform');
      const base = `/api/${shop.subdomain}`;
      const olga = await postOne(shop.owner, `${base}/customers`, { name: 'Olga Oil', email: 'olga@example.test' });
      const { page } = await signedInPage(browser, shop.owner);
      await page.goto(`/crm/${shop.subdomain}/customers`);
      await page.getByRole('button', { name: 'Add Customer' }).click({ timeout: SLOW });
      const dialog = page.getByRole('dialog', { name: 'Add New Customer' });
      await dialog.getByLabel('Name').fill('O. Oil');
      await dialog.getByLabel('Email').fill('OLGA@example.test');
      // Create Customer asks first (whether or not the list had drawn yet).
      await dialog.getByRole('button', { name: 'Create Customer' }).click();
      const offer = offerOf(dialog);
      await expect.poll(() => offer.textContent(), { timeout: SLOW }).toContain('same email');
      await expect.poll(() => offer.getByRole('alert').count()).toBe(1);
      await snapViewport(page, 'customer-matches-customer-form');
      expect((await shop.owner.get(`${base}/customers`)).body.items).toHaveLength(1);
      await offer.getByRole('button', { name: 'Use this customer: Olga Oil' }).click();
      await expect.poll(() => new URL(page.url()).pathname, { timeout: SLOW }).toBe(`/crm/${shop.subdomain}/customers/${olga.id}`);
      await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent(), { timeout: SLOW }).toBe('Olga Oil');
      expect((await shop.owner.get(`${base}/customers`)).body.items).toHaveLength(1);
    },
    TEST_TIMEOUT,
  );

  test(
    "a service request with a phone becomes a job on an existing customer's existing vehicle",
    async () => {
      const shop = await createShop(server, 'dupreq');
      const base = `/api/${shop.subdomain}`;
      const pat = await postOne(shop.owner, `${base}/customers`, { name: 'Pat Piston', phone: '5550103030' });
      const vehicle = await postOne(shop.owner, `${base}/customers/${pat.id}/vehicles`, {
        year: 2016,
        make: 'Subaru',
        model: 'Outback',
        plate: 'PAT 123',
      });
      // Sent under another spelling of the name, but from Pat's phone.
      const request = await postOne(shop.owner, `${base}/service-requests`, {
        customerName: 'Patricia Piston',
        contactPhone: '(555) 010-3030',
        vehicleType: 'Subaru Outback',
        serviceType: 'Oil Change',
      });
      const { page } = await signedInPage(browser, shop.owner);
      await page.goto(`/crm/${shop.subdomain}/service-list`);
      await page.getByRole('link', { name: /View SR-1 Patricia Piston/ }).click({ timeout: SLOW });
      const offer = offerOf(page);
      await expect.poll(() => offer.textContent(), { timeout: SLOW }).toContain('same phone');
      await snap(page, 'customer-matches-service-request');
      await offer.getByRole('button', { name: 'Use this customer: Pat Piston' }).click();

      const dialog = page.getByRole('dialog');
      await expect.poll(() => dialog.getByText(/Linked to customer/).textContent(), { timeout: SLOW }).toContain('Pat Piston');
      // The request's own offer was answered: the dialog does not ask again.
      await expect.poll(() => offerOf(dialog).count()).toBe(0);
      await choose(page, dialog.getByLabel("Customer's vehicle"), /2016 Subaru Outback/);
      await expect.poll(() => dialog.getByRole('link', { name: /Open 2016 Subaru Outback/ }).count()).toBe(1);
      await dialog.getByLabel('Mileage in').fill('81200');
      await dialog.getByRole('button', { name: 'Add Entry' }).click();
      await expect.poll(() => page.getByText(/Converted to job #\d+/).count(), { timeout: SLOW }).toBe(1);

      const converted = (await shop.owner.get(`${base}/service-requests/${request.id}`)).body;
      const job = (await shop.owner.get(`${base}/pipeline/${converted.jobId}`)).body;
      expect(job).toMatchObject({ customerId: pat.id, vehicleId: vehicle.id, mileageIn: 81200 });
      expect(job.phone).toContain('5550103030'.slice(-4));
      // No second customer was made, and the vehicle's page lists the job.
      expect((await shop.owner.get(`${base}/customers`)).body.items).toHaveLength(1);
      await page.goto(`/crm/${shop.subdomain}/vehicles/${vehicle.id}`);
      await expect.poll(() => page.getByText('Oil Change').count(), { timeout: SLOW }).toBeGreaterThan(0);
      await expect.poll(() => page.getByText(/81,200/).count(), { timeout: SLOW }).toBeGreaterThan(0);
    },
    TEST_TIMEOUT,
  );

  test(
    "the job dialog offers again once the name or phone changes: after Create new anyway, and after a chosen customer's name was typed over",
    async () => {
      const shop = await createShop(server, 'dupagain');
      const base = `/api/${shop.subdomain}`;
      await postOne(shop.owner, `${base}/customers`, { name: 'Nora Nash', phone: '5550102020' });
      await postOne(shop.owner, `${base}/customers`, { name: 'Olga Oil' });
      const { page } = await signedInPage(browser, shop.owner);
      await page.goto(`/crm/${shop.subdomain}/pipeline`);
      await page.getByRole('button', { name: 'Add New Entry' }).click({ timeout: SLOW });
      const dialog = page.getByRole('dialog', { name: 'Add New Entry' });
      const offer = offerOf(dialog);
      const name = dialog.getByLabel('Name', { exact: true });

      // Turned down for the name alone; Nora's phone typed next is a reason to ask again.
      await name.fill('Nora Nash');
      await dialog.getByLabel('Part').click();
      await expect.poll(() => offer.textContent(), { timeout: SLOW }).toContain('same name');
      await offer.getByRole('button', { name: 'Create new anyway' }).click();
      await expect.poll(() => offer.count()).toBe(0);
      await dialog.getByLabel('Phone').fill('5550102020');
      await expect.poll(() => offer.textContent(), { timeout: SLOW }).toContain('same name, same phone');

      // Chosen, then the name typed over with someone else's: the link goes and the new name's match is offered.
      await offer.getByRole('button', { name: 'Use this customer: Nora Nash' }).click();
      await expect.poll(() => dialog.getByText(/Linked to customer/).textContent()).toContain('Nora Nash');
      await expect.poll(() => offer.count()).toBe(0);
      await name.fill('Olga Oil');
      await expect.poll(() => dialog.getByText(/Linked to customer/).count()).toBe(0);
      await expect.poll(() => offer.getByRole('button', { name: 'Use this customer: Olga Oil' }).count(), { timeout: SLOW }).toBe(1);
    },
    TEST_TIMEOUT,
  );
});
