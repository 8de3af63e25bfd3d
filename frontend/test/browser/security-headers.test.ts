import type { Browser, ConsoleMessage } from 'playwright-core';
import { expect, test } from 'vitest';
import type { TestServer } from '../../../backend/test/support/server.ts';
import { createShop, newPage, serverAndBrowserForFile, signedInPage, SLOW, TEST_TIMEOUT } from './support.ts';

/**
 * The built app works under its content security policy (no inline script): the screens
 * render, the saved dark theme applies before first paint (a script file, not inline), the
 * API docs load, and no page logs a policy violation. Another site cannot frame it.
 */

let server: TestServer;
let browser: Browser;

serverAndBrowserForFile((s, b) => ([server, browser] = [s, b]));

test(
  'no CSP violations on the screens and the API docs; dark theme from storage; framing refused',
  async () => {
    const shop = await createShop(server, 'csp');
    const { page } = await signedInPage(browser, shop.owner, { colorScheme: 'light' });
    const violations: string[] = [];
    const watch = (message: ConsoleMessage) => {
      if (/Content Security Policy|Refused to (execute|load|apply|frame)/i.test(message.text())) violations.push(message.text());
    };
    page.on('console', watch);
    page.on('pageerror', (error) => violations.push(`page error: ${error.message}`));

    // The saved theme is applied by /theme-init.js (served as a script of our own) before the app renders.
    const themeScript = await page.request.get(`${server.url}/theme-init.js`);
    expect(themeScript.status()).toBe(200);
    expect(themeScript.headers()['content-type']).toMatch(/javascript/);
    await page.goto('/');
    await page.evaluate(() => localStorage.setItem('theme', 'dark'));
    for (const path of [`/crm/${shop.subdomain}/dashboard`, `/crm/${shop.subdomain}/pipeline`, `/crm/${shop.subdomain}/customers`]) {
      await page.goto(path);
      await expect.poll(() => page.evaluate(() => document.documentElement.classList.contains('dark')), { timeout: SLOW }).toBe(true);
      await expect.poll(() => page.getByRole('navigation').count(), { timeout: SLOW }).toBeGreaterThan(0);
    }
    await page.goto('/api/docs');
    await expect.poll(() => page.locator('.swagger-ui').count(), { timeout: SLOW }).toBeGreaterThan(0);
    expect(violations).toEqual([]);

    // Framed by another origin: the browser refuses to render the app inside it, and says why.
    const { page: evil } = await newPage(browser, { baseURL: 'about:blank' });
    const refusals: string[] = [];
    evil.on('console', (message) => refusals.push(message.text()));
    await evil.setContent(`<iframe id="victim" src="${server.url}/" width="400" height="300"></iframe>`);
    await expect
      .poll(() => refusals.join('\n'), { timeout: SLOW })
      .toMatch(/(Refused to (display|frame)|Framing).*(frame-ancestors|X-Frame-Options)/s);
    const frame = await (await evil.waitForSelector('#victim')).contentFrame();
    await expect.poll(() => frame?.evaluate(() => document.getElementById('root') !== null).catch(() => false)).toBeFalsy();
  },
  TEST_TIMEOUT,
);
