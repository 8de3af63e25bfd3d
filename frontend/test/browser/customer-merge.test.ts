import type { Browser } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { signInUser, type TestServer } from '../../../backend/test/support/server.ts';
import { addUser, createShop, postOne, serverAndBrowserForFile, signedInPage, SLOW, snap, snapViewport, TEST_TIMEOUT } from './support.ts';

/** An admin merges a duplicate customer into the one to keep from the customer page, and undoes it. */
let server: TestServer;
let browser: Browser;
serverAndBrowserForFile((s, b) => ([server, browser] = [s, b]));

describe('customer merge', () => {
  test(
    'merge a duplicate into the customer to keep, see it in both histories, and undo it',
    async () => {
      const shop = await createShop(server, 'mergeui');
      const base = `/api/${shop.subdomain}`;
      const dup = await postOne(shop.owner, `${base}/customers`, { name: 'Mia Twice', phone: '5550107777' });
      const keep = await postOne(shop.owner, `${base}/customers`, { name: 'Mia Keeper', phone: '5550107777', email: 'mia@example.test' });
      const vehicle = await postOne(shop.owner, `${base}/customers/${dup.id}/vehicles`, { year: 2014, make: 'Honda', model: 'Civic' });
      const job = await postOne(shop.owner, `${base}/pipeline`, { name: 'Mia Twice', part: 'Brakes', vehicleId: vehicle.id });
      expect(job.customerId).toBe(dup.id);

      const { page } = await signedInPage(browser, shop.owner);
      await page.goto(`/crm/${shop.subdomain}/customers/${dup.id}`);
      await page.getByRole('button', { name: 'Merge into…' }).click();
      const dialog = page.getByRole('dialog', { name: 'Merge Customer' });
      await dialog.getByLabel('Customer to keep').fill('Mia');
      await dialog.getByRole('radio', { name: /Mia Keeper/ }).click();
      // The duplicate itself is never offered.
      await expect.poll(() => dialog.getByRole('radio', { name: /Mia Twice/ }).count(), { timeout: SLOW }).toBe(0);
      const preview = dialog.getByTestId('merge-summary-preview');
      await expect.poll(() => preview.textContent(), { timeout: SLOW }).toContain('1 job and 1 vehicle');
      await snapViewport(page, 'customer-merge-dialog');
      await dialog.getByRole('button', { name: 'Merge into Mia Keeper' }).click();

      // The survivor's page, its history saying what happened; the job and vehicle are its own now.
      await expect.poll(() => new URL(page.url()).pathname, { timeout: SLOW }).toBe(`/crm/${shop.subdomain}/customers/${keep.id}`);
      const summary = page.getByTestId('merge-summary').first();
      await expect.poll(() => summary.textContent(), { timeout: SLOW }).toBe('Merged Mia Twice into Mia Keeper (1 job, 1 vehicle)');
      expect((await shop.owner.get(`${base}/pipeline/${job.id}`)).body).toMatchObject({ customerId: keep.id, name: 'Mia Keeper' });
      await snap(page, 'customer-merge-survivor');

      // The merged-away customer's page points to the survivor, and its history has the Undo.
      await page.goto(`/crm/${shop.subdomain}/customers/${dup.id}`);
      await expect.poll(() => page.getByText('This customer was merged into').textContent(), { timeout: SLOW }).toContain('Mia Keeper');
      await page.getByRole('button', { name: 'Undo merge' }).click();
      await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent(), { timeout: SLOW }).toBe('Mia Twice');
      await expect
        .poll(async () => (await shop.owner.get(`${base}/pipeline/${job.id}`)).body, { timeout: SLOW })
        .toMatchObject({ customerId: dup.id, name: 'Mia Twice' });
      expect((await shop.owner.get(`${base}/vehicles/${vehicle.id}`)).body).toMatchObject({ customerId: dup.id });
      await expect.poll(() => page.getByRole('button', { name: 'Undo merge' }).count(), { timeout: SLOW }).toBe(0);

      // The dialog on a phone, in the dark theme.
      const phone = await signedInPage(browser, shop.owner, { phone: true, colorScheme: 'dark' });
      await phone.page.goto(`/crm/${shop.subdomain}/customers/${dup.id}`);
      await phone.page.getByRole('button', { name: 'Merge into…' }).click();
      const phoneDialog = phone.page.getByRole('dialog', { name: 'Merge Customer' });
      await phoneDialog.getByLabel('Customer to keep').fill('Mia Keeper');
      await phoneDialog.getByRole('radio', { name: /Mia Keeper/ }).click();
      await expect.poll(() => phoneDialog.getByTestId('merge-summary-preview').textContent(), { timeout: SLOW }).toContain('1 vehicle');
      await snapViewport(phone.page, 'customer-merge-dialog-phone-dark');
    },
    TEST_TIMEOUT,
  );

  test(
    'a user who is not an admin has no merge',
    async () => {
      const shop = await createShop(server, 'mergenot');
      const customer = await postOne(shop.owner, `/api/${shop.subdomain}/customers`, { name: 'Noel Nomerge' });
      await addUser(shop.owner, { username: 'desk', pin: '5555' });
      const staff = await signInUser(server, shop.subdomain, 'desk', '5555');
      const { page } = await signedInPage(browser, staff);
      await page.goto(`/crm/${shop.subdomain}/customers/${customer.id}`);
      await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent(), { timeout: SLOW }).toBe('Noel Nomerge');
      await expect.poll(() => page.getByRole('button', { name: 'Merge into…' }).count()).toBe(0);
    },
    TEST_TIMEOUT,
  );
});
