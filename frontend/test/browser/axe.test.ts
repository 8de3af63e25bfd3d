import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { ApiClient, signInSuperAdmin, type TestServer } from '../../../backend/test/support/server.ts';
import { createShop, newPage, postOne, serverAndBrowserForFile, signedInPage, SLOW, type Shop } from './support.ts';

/**
 * axe-core (WCAG 2.0 A/AA and 2.1 A/AA rules) over every route of the route map, in Chromium:
 * each screen of a shop signed in as its owner (with a customer, a vehicle, jobs with an
 * appointment and an estimate, a service request), the provider's pages as the super admin, the
 * public pages signed out; each in light and dark theme, at desktop (1366x900) and phone (390x844)
 * size. Any violation fails, listed by route, theme, size, rule and element.
 * One page per visitor is reused: each route is loaded once and the theme and size switched in
 * place (the app follows the system colour scheme when no theme was chosen), so the file stays fast.
 */

let server: TestServer;
let browser: Browser;
serverAndBrowserForFile((s, b) => ([server, browser] = [s, b]));

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
const SIZES = {
  desktop: { width: 1366, height: 900 },
  phone: { width: 390, height: 844 },
} as const;
const THEMES = ['light', 'dark'] as const;
/** Long enough for ~30 routes × 4 scans on a busy two-core machine. */
const AXE_TIMEOUT = 900_000;

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: string[]; failureSummary?: string }>;
}

/**
 * Counts the page's API calls in flight (the live event stream aside), so a scan waits until
 * the screen has its data rather than scanning a loading state.
 */
function trackRequests(page: Page): () => number {
  const open = new Set<unknown>();
  const isData = (url: string) => {
    const { pathname } = new URL(url);
    return pathname.startsWith('/api/') && !pathname.includes('/live') && !pathname.includes('/events');
  };
  page.on('request', (request) => {
    if (isData(request.url())) open.add(request);
  });
  page.on('requestfinished', (request) => open.delete(request));
  page.on('requestfailed', (request) => open.delete(request));
  return () => open.size;
}

/**
 * Waits for the screen's data and for every finite animation and transition to end: a theme
 * switched in place fades its colours, and a dialog just opened fades in over a dimming backdrop,
 * so axe would measure the contrast halfway. Endless ones (a spinner) are waited out above.
 */
async function settle(page: Page, inFlight: () => number): Promise<void> {
  await expect.poll(inFlight, { timeout: SLOW }).toBe(0);
  await expect
    .poll(() => page.evaluate(() => document.querySelectorAll('[aria-busy="true"], .animate-spin, .animate-pulse').length), {
      timeout: SLOW,
    })
    .toBe(0);
  await expect
    .poll(
      () =>
        page.evaluate(
          () =>
            document
              .getAnimations()
              .filter((a) => a.playState !== 'finished' && a.playState !== 'idle' && a.effect?.getTiming().iterations !== Infinity).length,
        ),
      { timeout: SLOW },
    )
    .toBe(0);
}

/** axe over the page as it is now; the violations, one line per rule and element. */
async function scan(page: Page, where: string): Promise<string[]> {
  const loaded = await page.evaluate(() => typeof (window as { axe?: unknown }).axe === 'object');
  if (!loaded) await page.evaluate(AXE_SOURCE);
  const violations = (await page.evaluate(
    async (tags) =>
      (
        await (window as unknown as { axe: { run: (ctx: Document, o: unknown) => Promise<{ violations: unknown[] }> } }).axe.run(document, {
          runOnly: { type: 'tag', values: tags },
          resultTypes: ['violations'],
        })
      ).violations,
    TAGS,
  )) as Violation[];
  return violations.flatMap((v) =>
    v.nodes.map(
      (n) =>
        `${where}: [${v.impact}] ${v.id} (${v.help}) at ${n.target.join(' ')}: ${n.failureSummary?.split('\n').slice(1, 2).join('').trim()}`,
    ),
  );
}

/** Visits each route once, then scans it in every theme and size. */
async function scanRoutes(page: Page, routes: Array<{ path: string; ready?: (page: Page) => Promise<void> }>): Promise<string[]> {
  const inFlight = trackRequests(page);
  const found: string[] = [];
  for (const route of routes) {
    await page.setViewportSize(SIZES.desktop);
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto(route.path);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).count(), { timeout: SLOW }).toBeGreaterThan(0);
    await settle(page, inFlight);
    await route.ready?.(page);
    for (const [size, viewport] of Object.entries(SIZES)) {
      await page.setViewportSize(viewport);
      for (const theme of THEMES) {
        await page.emulateMedia({ colorScheme: theme });
        await expect.poll(() => page.evaluate(() => document.documentElement.classList.contains('dark'))).toBe(theme === 'dark');
        await settle(page, inFlight);
        found.push(...(await scan(page, `${route.path} ${theme} ${size}`)));
      }
    }
  }
  return found;
}

function expectClean(all: string[]): void {
  expect(all, `axe violations:\n${all.join('\n')}`).toEqual([]);
}

/** A shop with every feature on, and one of each kind of record its screens show. */
async function seededShop(): Promise<
  Shop & { customerId: string; vehicleId: string; jobId: string; requestId: string; estimateLink: string; decidedLink: string }
> {
  const shop = await createShop(server, 'axe', undefined, {
    features: { pipeline: true, customers: true, calendar: true, admin: true, serviceRequests: true },
  });
  const api = `/api/${shop.subdomain}`;
  const customer = await postOne(shop.owner, `${api}/customers`, {
    name: 'Ada Lovelace',
    phone: '555-123-4567',
    email: 'ada@example.com',
    vehicles: ['2019 Honda Civic'],
  });
  const vehicle = await postOne(shop.owner, `${api}/customers/${customer.id}/vehicles`, { make: 'Honda', model: 'Civic', year: 2019 });
  const now = new Date();
  now.setUTCHours(15, 0, 0, 0);
  await postOne(shop.owner, `${api}/pipeline`, {
    name: 'Ada Lovelace',
    phone: '5551234567',
    customerId: customer.id,
    part: 'Brake pads',
    stage: 'Scheduled',
    appointment: now.toISOString(),
    duration: 60,
  });
  const job = await postOne(shop.owner, `${api}/pipeline`, { name: 'Bob Builder', part: 'Wipers', customerId: customer.id });
  const read = await shop.owner.get(`${api}/pipeline/${job.id}`);
  const line = await shop.owner.post(
    `${api}/pipeline/${job.id}/lines`,
    { kind: 'part', description: 'Wiper blade', unitPrice: '9.99' },
    { 'If-Match': read.headers.get('etag')! },
  );
  expect(line.status).toBe(201);
  const sent = await shop.owner.post(`${api}/pipeline/${job.id}/estimate/send`, {}, { 'If-Match': line.headers.get('etag')! });
  expect(sent.status).toBeLessThan(300);
  // An estimate the customer has answered: its page then shows each line approved or declined.
  const answered = await postOne(shop.owner, `${api}/pipeline`, { name: 'Cy Decided', customerId: customer.id });
  await postOne(shop.owner, `${api}/pipeline/${answered.id}/lines`, { kind: 'part', description: 'Cabin filter', unitPrice: '24.00' });
  const withFee = await postOne(shop.owner, `${api}/pipeline/${answered.id}/lines`, {
    kind: 'fee',
    description: 'Disposal',
    amount: '3.50',
  });
  const decided = await shop.owner.post(`${api}/pipeline/${answered.id}/estimate/send`, {});
  expect(decided.status).toBeLessThan(300);
  const [approvedLine, declinedLine] = (withFee.lines as Array<{ id: string }>).map((l) => l.id);
  const decision = await new ApiClient(server.url).post(`/api/public/estimates/${decided.body.token}/decision`, {
    approvedLineIds: [approvedLine],
    declinedLineIds: [declinedLine],
    name: 'Cy Decided',
  });
  expect(decision.status, decision.text).toBe(200);
  const request = await postOne(shop.owner, `${api}/service-requests`, {
    customerName: 'Linus Torvalds',
    contactEmail: 'linus@example.com',
    vehicleType: '2012 Volvo V70',
    serviceType: 'Oil Change',
    scheduledDate: '2026-05-04',
  });
  return {
    ...shop,
    customerId: customer.id,
    vehicleId: vehicle.id,
    jobId: job.id,
    requestId: request.id,
    estimateLink: sent.body.link,
    decidedLink: decided.body.link,
  };
}

/** Opens a dialog with the button and waits for it, so the scan covers it too. */
const withDialog = (button: RegExp | string) => async (page: Page) => {
  await page.getByRole('button', { name: button }).first().click();
  await expect.poll(() => page.getByRole('dialog').count(), { timeout: SLOW }).toBeGreaterThan(0);
};

describe('axe-core over every route', () => {
  test(
    "a shop's screens, signed in as its owner",
    async () => {
      const shop = await seededShop();
      const c = `/crm/${shop.subdomain}`;
      const { page } = await signedInPage(browser, shop.owner);
      const week = async (p: Page) => {
        await p.getByRole('group', { name: 'View' }).getByRole('button', { name: 'Week' }).click();
        await expect.poll(() => p.locator('.rbc-time-view').count()).toBe(1);
      };
      const found = await scanRoutes(page, [
        { path: `${c}/dashboard` },
        { path: `${c}/pipeline` },
        { path: `${c}/pipeline`, ready: withDialog(/Add New Entry/i) },
        { path: `${c}/pipeline`, ready: withDialog('Edit Bob Builder') },
        { path: `${c}/pipeline/${shop.jobId}/estimate` },
        { path: `${c}/reports/takings` },
        { path: `${c}/customers` },
        { path: `${c}/customers/new` },
        { path: `${c}/customers/${shop.customerId}` },
        { path: `${c}/customers/${shop.customerId}/edit` },
        { path: `${c}/vehicles/${shop.vehicleId}` },
        { path: `${c}/messages` },
        { path: `${c}/messages/templates` },
        { path: `${c}/calendar` },
        { path: `${c}/calendar`, ready: week },
        { path: `${c}/service-form` },
        { path: `${c}/service-list` },
        { path: `/edit-service/${shop.requestId}` },
        { path: `${c}/admin` },
        { path: `${c}/insights` },
        { path: `${c}/admin/shop` },
        { path: `${c}/admin/audit` },
        { path: `${c}/admin/deleted` },
        { path: '/profile' },
        { path: '/settings' },
      ]);
      expectClean(found);
    },
    AXE_TIMEOUT,
  );

  test(
    "the provider's pages, signed in as the super admin",
    async () => {
      const superAdmin = await signInSuperAdmin(server);
      const { page } = await signedInPage(browser, superAdmin);
      expectClean(await scanRoutes(page, [{ path: '/' }, { path: '/crm-selection' }, { path: '/crm-builder' }]));
    },
    AXE_TIMEOUT,
  );

  test(
    'the public pages, signed out',
    async () => {
      const shop = await seededShop();
      const { page } = await newPage(browser, { baseURL: server.url });
      expectClean(
        await scanRoutes(page, [
          { path: '/super-admin-login' },
          { path: `/crm/${shop.subdomain}` },
          { path: `/${shop.subdomain}/login` },
          { path: `/${shop.subdomain}/request` },
          { path: new URL(shop.estimateLink, server.url).pathname },
          { path: new URL(shop.decidedLink, server.url).pathname },
          { path: '/register' },
          { path: '/crm/nosuchshop' },
          { path: '/maven' },
        ]),
      );
    },
    AXE_TIMEOUT,
  );
});
