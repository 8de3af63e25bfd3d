import type { Browser } from 'playwright-core';
import { expect, test } from 'vitest';
import { ApiClient, type TestServer } from '../../../backend/test/support/server.ts';
import { addUser, createShop, serverAndBrowserForFile, signedInPage, SLOW, snap, TEST_TIMEOUT, unique } from './support.ts';

let server: TestServer;
let browser: Browser;

serverAndBrowserForFile((s, b) => ([server, browser] = [s, b]));

test(
  'the admin list says "Locked out until HH:MM" for a user who failed five PINs, and Clear Lockout lets them in',
  async () => {
    const shop = await createShop(server, 'lockout');
    const name = unique('fumble');
    await addUser(shop.owner, { username: name, pin: '4444' });
    for (let i = 0; i < 5; i++) {
      await new ApiClient(server.url).post('/api/auth/login', { username: name, pin: '0000', instance: shop.subdomain });
    }
    for (const phone of [false, true]) {
      const { page } = await signedInPage(browser, shop.owner, { phone, colorScheme: phone ? 'dark' : 'light' });
      await page.goto(`/crm/${shop.subdomain}/admin`);
      const entry = phone ? page.getByRole('listitem').filter({ hasText: name }) : page.getByRole('row', { name: new RegExp(name) });
      await expect.poll(() => entry.textContent(), { timeout: SLOW }).toMatch(/Locked out until \d{1,2}:\d{2}/);
      await snap(page, `admin-locked-out${phone ? '-phone-dark' : ''}`);
      if (!phone) {
        await entry.getByRole('button', { name: 'Clear Lockout' }).click();
        await expect.poll(() => entry.textContent(), { timeout: SLOW }).toContain('Active');
        await expect.poll(() => entry.getByRole('button', { name: 'Clear Lockout' }).count()).toBe(0);
        const signIn = await new ApiClient(server.url).post('/api/auth/login', { username: name, pin: '4444', instance: shop.subdomain });
        expect(signIn.status).toBe(200);
      }
      if (!phone) {
        // Lock the next one out again for the phone view.
        for (let i = 0; i < 5; i++) {
          await new ApiClient(server.url).post('/api/auth/login', { username: name, pin: '0000', instance: shop.subdomain });
        }
      }
    }
  },
  TEST_TIMEOUT,
);
