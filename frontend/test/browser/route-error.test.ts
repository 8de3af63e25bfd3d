import type { Browser, Page } from 'playwright-core';
import { expect, test } from 'vitest';
import type { TestServer } from '../../../backend/test/support/server.ts';
import { createShop, newPage, serverAndBrowserForFile, signedInPage, SLOW, snap, TEST_TIMEOUT } from './support.ts';

/**
 * A screen's code that cannot be loaded (a deploy replaced its chunk, the network dropped) or
 * that throws while it is evaluated shows the error screen inside the layout, with Reload, and
 * never a blank page: on the first load of the app and on a navigation within it.
 */

let server: TestServer;
let browser: Browser;

serverAndBrowserForFile((s, b) => ([server, browser] = [s, b]));

/** Makes the lazily loaded chunk whose file name starts with `name` fail: not found, or a module that throws. */
async function breakChunk(page: Page, name: string, how: 'missing' | 'throws'): Promise<void> {
  await page.route(new RegExp(`/assets/${name}-[^/]+\\.js$`), (route) =>
    how === 'missing'
      ? route.fulfill({ status: 404, contentType: 'text/plain', body: 'gone' })
      : route.fulfill({ status: 200, contentType: 'text/javascript', body: "throw new Error('chunk exploded');" }),
  );
}

async function expectErrorScreen(page: Page): Promise<void> {
  await expect.poll(() => page.getByRole('heading', { level: 1, name: 'Something went wrong' }).count(), { timeout: SLOW }).toBe(1);
  await expect.poll(() => page.getByRole('button', { name: 'Reload' }).count()).toBe(1);
  // Inside the layout: the header and the footer are still there.
  await expect.poll(() => page.locator('header').count()).toBeGreaterThan(0);
}

test(
  "first load: a page whose chunk is missing shows the error screen, and Reload brings the page once it's back",
  async () => {
    const { page } = await newPage(browser, { baseURL: server.url });
    await breakChunk(page, 'not-found', 'missing');
    await page.goto('/no/such/page/anywhere');
    await expectErrorScreen(page);
    await snap(page, 'route-error-first-load');

    await page.unrouteAll();
    await page.getByRole('button', { name: 'Reload' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1, name: 'Page not found' }).count(), { timeout: SLOW }).toBe(1);
  },
  TEST_TIMEOUT,
);

test(
  'first load: a page whose module throws when evaluated shows the error screen',
  async () => {
    const { page } = await newPage(browser, { baseURL: server.url });
    await breakChunk(page, 'not-found', 'throws');
    await page.goto('/no/such/page/either');
    await expectErrorScreen(page);
  },
  TEST_TIMEOUT,
);

test(
  'navigation: a signed-in page whose chunk fails shows the error screen within the instance, other pages still open',
  async () => {
    const shop = await createShop(server, 'chunk');
    const { page } = await signedInPage(browser, shop.owner);
    await breakChunk(page, 'customers-page', 'missing');
    await page.goto(`/crm/${shop.subdomain}/dashboard`);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).count(), { timeout: SLOW }).toBeGreaterThan(0);
    await page.getByRole('navigation').getByRole('link', { name: 'Customers', exact: true }).first().click();
    await expectErrorScreen(page);
    expect(new URL(page.url()).pathname).toBe(`/crm/${shop.subdomain}/customers`);
    await snap(page, 'route-error-navigation');
    // The rest of the app still works: another screen opens from the navigation.
    await page.getByRole('navigation').getByRole('link', { name: 'Pipeline', exact: true }).first().click();
    await expect.poll(() => new URL(page.url()).pathname, { timeout: SLOW }).toBe(`/crm/${shop.subdomain}/pipeline`);
    await expect.poll(() => page.getByRole('heading', { name: 'Something went wrong' }).count(), { timeout: SLOW }).toBe(0);
    await expect.poll(() => page.locator('#main').innerText(), { timeout: SLOW }).toMatch(/\S/);
  },
  TEST_TIMEOUT,
);
