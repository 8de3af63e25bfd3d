import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Page } from 'playwright-core';
import pg from 'pg';
import { startEmbeddedPostgres, type EmbeddedPostgresHandle } from '@crm/projections/db/embedded';
import { createProgress } from './cli.ts';
import { loadConfig } from './config.ts';
import { createLogger } from './logger.ts';
import { FRONTEND_DIST, startRuntime } from './runtime.ts';

/**
 * The pipeline screen against the customers screen in a real Chromium, with the same number
 * of rows: time until the rows show, the longest main-thread task while loading them (Load
 * more until `rows`), and the longest task while typing in the search box. The customers
 * screen is the baseline measured in the same run; figures are ratios pipeline/customers.
 */
export interface ScreenFigures {
  /** ms from navigation until the first page of rows is on screen. */
  firstRowsMs: number;
  /** ms from navigation until `rows` rows are on screen (Load more clicked as needed). */
  allRowsMs: number;
  /** Longest long task (ms) while loading. */
  longestTaskMs: number;
  /** Longest long task (ms) while typing five characters in the search box. */
  typingLongestTaskMs: number;
}

export interface ScreensReport {
  rows: number;
  pipeline: ScreenFigures;
  customers: ScreenFigures;
}

const CHROME_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const PASSWORD = 'bench-screens-password';

async function api(
  base: string,
  cookie: string,
  method: string,
  url: string,
  body?: unknown,
): Promise<{ status: number; json: { id?: string } | null; cookie: string }> {
  const response = await fetch(base + url, {
    method,
    headers: { 'content-type': 'application/json', 'x-crm-request': '1', ...(cookie ? { cookie } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const set = response.headers
    .getSetCookie()
    .filter((c) => !/expires=Thu, 01 Jan 1970/i.test(c))
    .map((c) => c.split(';')[0]!);
  const text = await response.text();
  return {
    status: response.status,
    json: text ? (JSON.parse(text) as { id?: string }) : null,
    cookie: set.length ? set.join('; ') : cookie,
  };
}

// The page-side code is text: this program is built without the DOM's types.
const OBSERVE_LONG_TASKS = `
  window.__longTasks = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__longTasks.push(entry.duration);
  }).observe({ type: 'longtask', buffered: true });
`;

/** Long tasks seen by the page since the last reset. */
async function installLongTaskObserver(page: Page): Promise<void> {
  await page.addInitScript({ content: OBSERVE_LONG_TASKS });
}

/** The longest long task since the last reset (ms), and a reset. */
async function longestTask(page: Page): Promise<number> {
  return await page.evaluate<number>(
    '(() => { const longest = Math.max(0, ...window.__longTasks); window.__longTasks = []; return longest; })()',
  );
}

async function measure(page: Page, url: string, rowSelector: string, rows: number, searchLabel: RegExp): Promise<ScreenFigures> {
  const started = Date.now();
  await page.goto(url);
  await page.locator(rowSelector).first().waitFor({ timeout: 60_000 });
  const firstRowsMs = Date.now() - started;
  const loadMore = page.getByRole('button', { name: 'Load more' });
  while ((await page.locator(rowSelector).count()) < rows) {
    const before = await page.locator(rowSelector).count();
    await loadMore.click({ timeout: 60_000 });
    await page.waitForFunction(`document.querySelectorAll(${JSON.stringify(rowSelector)}).length > ${before}`, undefined, {
      timeout: 60_000,
    });
  }
  const allRowsMs = Date.now() - started;
  // Let the last render settle before reading the tasks.
  await page.waitForTimeout(300);
  const longestTaskMs = await longestTask(page);
  const search = page
    .getByRole('searchbox', { name: searchLabel })
    .or(page.getByRole('textbox', { name: searchLabel }))
    .first();
  await search.click();
  await search.pressSequentially('brake', { delay: 60 });
  await page.waitForTimeout(800);
  const typingLongestTaskMs = await longestTask(page);
  return { firstRowsMs, allRowsMs, longestTaskMs, typingLongestTaskMs };
}

/** Seeds one instance with `rows` jobs and `rows` customers and measures both screens. */
export async function benchScreens(rows: number): Promise<ScreensReport> {
  const dir = mkdtempSync(path.join(tmpdir(), 'crm-bench-screens-'));
  let cluster: EmbeddedPostgresHandle | null = null;
  let databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) {
    cluster = await startEmbeddedPostgres({ dataDir: path.join(dir, 'pg'), persistent: false });
    databaseUrl = cluster.urlFor('postgres');
  }
  {
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    const dbName = `bench_screens_${Date.now()}`;
    await admin.query(`CREATE DATABASE ${dbName}`);
    await admin.end();
    const url = new URL(databaseUrl);
    url.pathname = `/${dbName}`;
    databaseUrl = url.toString();
  }
  const config = loadConfig({
    DATABASE_URL: databaseUrl,
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dir,
    SUPER_ADMIN_PASSWORD: PASSWORD,
    LOG_LEVEL: 'silent',
    SIGN_IN_RATE_LIMIT: '100000',
  });
  const runtime = await startRuntime(config, createLogger('silent'), { version: 'bench', frontendDir: FRONTEND_DIST });
  const browser = await chromium.launch({
    executablePath: CHROME_PATH,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
    ],
  });
  try {
    const base = runtime.url;
    const superAdmin = await api(base, '', 'POST', '/api/super-admin/login', { username: config.SUPER_ADMIN_USERNAME, password: PASSWORD });
    const created = await api(base, superAdmin.cookie, 'POST', '/api/crm-instances', {
      name: 'SCREENS',
      displayName: 'Screens Auto',
      subdomain: 'screens',
      adminUsername: 'owner',
      adminDisplayName: 'Owner',
      adminPin: '1234',
    });
    if (created.status !== 201) throw new Error(`instance: ${created.status} ${JSON.stringify(created.json)}`);
    const owner = await api(base, '', 'POST', '/api/auth/login', { username: 'owner', pin: '1234', instance: 'screens' });
    const progress = createProgress('Seeding jobs and customers for the screens', 'records');
    for (let i = 0; i < rows; i++) {
      const customer = await api(base, owner.cookie, 'POST', '/api/screens/customers', {
        name: `Customer ${i} Lopez`,
        phone: `555${String(1_000_000 + i).slice(-7)}`,
        vehicles: ['2018 Toyota Camry'],
      });
      await api(base, owner.cookie, 'POST', '/api/screens/pipeline', {
        name: `Customer ${i} Lopez`,
        phone: `555${String(1_000_000 + i).slice(-7)}`,
        customerId: customer.json?.id,
        part: i % 2 ? 'Brake pads' : 'Alternator',
        makeModel: '2018 Toyota Camry',
        quote: String(100 + i),
      });
      progress((i + 1) * 2, rows * 2);
    }
    const context = await browser.newContext({ baseURL: base, viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await installLongTaskObserver(page);
    await page.goto('/crm/screens');
    await page.evaluate(`fetch('/api/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-crm-request': '1' },
      body: JSON.stringify({ username: 'owner', pin: '1234', instance: 'screens' }),
    })`);
    // Warm-up: both screens' code loaded once, so neither pays for the first download.
    await measure(page, '/crm/screens/customers', 'main ul[class*="grid"] > li', 1, /search/i);
    await measure(page, '/crm/screens/pipeline', 'table tbody tr', 1, /search/i);
    const customers = await measure(page, '/crm/screens/customers', 'main ul[class*="grid"] > li', rows, /search/i);
    const pipeline = await measure(page, '/crm/screens/pipeline', 'table tbody tr', rows, /search/i);
    await context.close();
    return { rows, pipeline, customers };
  } finally {
    await browser.close();
    await runtime.stop();
    await cluster?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

function printReport(report: ScreensReport): void {
  const keys: Array<keyof ScreenFigures> = ['firstRowsMs', 'allRowsMs', 'longestTaskMs', 'typingLongestTaskMs'];
  console.log(`\nScreens with ${report.rows} rows (pipeline against customers, same run):`);
  console.log('  figure                 pipeline  customers  ratio');
  for (const key of keys) {
    // A long task is one over 50 ms: below that the baseline counts as 50 (no long task).
    const floor = key.endsWith('TaskMs') ? 50 : 1;
    const p = report.pipeline[key];
    const c = report.customers[key];
    console.log(
      `  ${key.padEnd(22)} ${String(Math.round(p)).padStart(8)}  ${String(Math.round(c)).padStart(9)}  ${(Math.max(p, floor) / Math.max(c, floor)).toFixed(2)}×`,
    );
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = Number(process.env.BENCH_SCREEN_ROWS ?? 200);
  const report = await benchScreens(rows);
  printReport(report);
  // `npm run bench` reads the figures from here.
  if (process.env.BENCH_SCREENS_OUT) writeFileSync(process.env.BENCH_SCREENS_OUT, JSON.stringify(report));
}

export { printReport as printScreensReport };
