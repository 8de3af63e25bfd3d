import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const CHROME_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium';

/** Debian's Chromium, headless, with the flags this closed network needs. */
export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROME_PATH)) {
    throw new Error(`Chromium not found at ${CHROME_PATH}: install Debian's chromium package or set CHROME_PATH`);
  }
  return await chromium.launch({
    executablePath: CHROME_PATH,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export async function newPage(
  browser: Browser,
  options: { baseURL: string; phone?: boolean; colorScheme?: 'light' | 'dark' },
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    baseURL: options.baseURL,
    viewport: options.phone ? { width: 375, height: 812 } : { width: 1280, height: 860 },
    colorScheme: options.colorScheme ?? 'light',
  });
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  return { context, page };
}

/** Screenshots land in ./screenshots (not committed) for people to look at. */
export async function snap(page: Page, name: string): Promise<void> {
  const dir = path.resolve('screenshots');
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: true });
}
