import type { Browser } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import type { TestServer } from '../../../backend/test/support/server.ts';
import { createShop, postOne, serverAndBrowserForFile, signedInPage, SLOW, snap, TEST_TIMEOUT } from './support.ts';

/** A vehicle's page and form: what the VIN says is labelled as the VIN's, and a VIN another vehicle has links to it. */
let server: TestServer;
let browser: Browser;
serverAndBrowserForFile((s, b) => ([server, browser] = [s, b]));

describe('vehicles', () => {
  for (const [scheme, phone] of [
    ['light', false],
    ['dark', false],
    ['light', true],
  ] as const) {
    test(
      `the page labels what the VIN says beside what was typed; the form's VIN taken by another vehicle links to it (${scheme}${phone ? ', phone' : ''})`,
      async () => {
        const shop = await createShop(server, `veh${scheme}${phone ? 'p' : ''}`);
        const base = `/api/${shop.subdomain}`;
        const ann = await postOne(shop.owner, `${base}/customers`, { name: 'Ann Accord' });
        const bob = await postOne(shop.owner, `${base}/customers`, { name: 'Bob Buyer' });
        // Typed 2004; the VIN's 10th character says 2003.
        const accord = await postOne(shop.owner, `${base}/customers/${ann.id}/vehicles`, {
          year: 2004,
          make: 'Honda',
          model: 'Accord',
          vin: '1HGCM82633A004352',
        });
        const bobs = await postOne(shop.owner, `${base}/customers/${bob.id}/vehicles`, { year: 2004, make: 'Honda', model: 'Accord' });

        const { page } = await signedInPage(browser, shop.owner, { colorScheme: scheme, phone });
        if (phone) await page.setViewportSize({ width: 390, height: 844 });
        await page.goto(`/crm/${shop.subdomain}/vehicles/${accord.id}`);
        const details = page.locator('dl');
        await expect.poll(() => details.innerText(), { timeout: SLOW }).toContain('model year 2003 · Honda · made in United States');
        await expect.poll(() => details.innerText()).toMatch(/The VIN says\s+model year 2003/);
        await expect.poll(() => details.innerText()).toMatch(/Check digit\s+Correct/);
        await expect.poll(() => page.getByText('The VIN says model year 2003, not 2004: check the year or the VIN.').count()).toBe(1);
        await snap(page, `vehicle-page-vin-says-${scheme}${phone ? '-390' : ''}`);

        // Bob's car given Ann's VIN: refused at the VIN box, with Ann's car a click away.
        await page.goto(`/crm/${shop.subdomain}/vehicles/${bobs.id}`);
        await page.getByRole('button', { name: 'Edit vehicle' }).click({ timeout: SLOW });
        const form = page.getByRole('form', { name: 'Edit vehicle' });
        await form.getByLabel('VIN').fill('1HGCM82633A004352');
        await expect
          .poll(() => form.getByText('The VIN says model year 2003 · Honda · made in United States.', { exact: false }).count())
          .toBe(1);
        await form.getByRole('button', { name: 'Save vehicle' }).click();
        await expect
          .poll(() => form.getByText('VIN 1HGCM82633A004352 is already on 2004 Honda Accord of Ann Accord', { exact: false }).count(), {
            timeout: SLOW,
          })
          .toBe(1);
        const open = form.getByRole('link', { name: 'Open 2004 Honda Accord' });
        await expect.poll(() => open.count()).toBe(1);
        await snap(page, `vehicle-form-vin-taken-${scheme}${phone ? '-390' : ''}`);
        await open.click();
        await expect.poll(() => new URL(page.url()).pathname, { timeout: SLOW }).toBe(`/crm/${shop.subdomain}/vehicles/${accord.id}`);
        await expect.poll(() => page.getByRole('heading', { name: '2004 Honda Accord' }).count()).toBe(1);
      },
      TEST_TIMEOUT,
    );
  }
});
