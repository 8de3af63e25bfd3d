import type { Browser, Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { signInSuperAdmin, type TestServer } from '../../../backend/test/support/server.ts';
import { addUser, createShop, postOne, serverAndBrowserForFile, signedInPage, SLOW, snap, unique } from './support.ts';

/**
 * Long unbroken words (an email typed as a name, a part number, a run of letters with no space)
 * in every kind of record, and every screen that shows them on a 390x844 phone, light and dark:
 * no page is wider than the screen and no dialog reaches past it. The app's one rule for this is
 * in index.css (`overflow-wrap: anywhere` on body); a screen that breaks it widens here.
 */

let server: TestServer;
let browser: Browser;
serverAndBrowserForFile((s, b) => ([server, browser] = [s, b]));

const PHONE = { width: 390, height: 844 };
const THEMES = ['light', 'dark'] as const;
/** Long enough for ~40 screens in two themes on a busy two-core machine. */
const LONG_TIMEOUT = 600_000;

/** 35 letters, no space or hyphen: the browser may only break it anywhere. */
const WORD = 'Featherstonehaughmontgomeryworkshop';
/** Each field its own word, so a failure's text says which record it came from. */
const long = (what: string) => `${what}${WORD}`;
const longEmail = (what: string) => `${what.toLowerCase()}${WORD.toLowerCase()}@${WORD.toLowerCase()}.example`;

/**
 * What reaches past the screen's right edge: the page's own width over the viewport's, each
 * open dialog reaching past either edge or scrolling sideways, and (to say where) the innermost
 * elements past the edge.
 */
async function overflow(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = window.innerWidth;
    const found: string[] = [];
    const scrolling = document.scrollingElement!;
    if (scrolling.scrollWidth > width) found.push(`the page is ${scrolling.scrollWidth} px wide on a ${width} px screen`);
    for (const dialog of document.querySelectorAll<HTMLElement>('[role="dialog"], [role="alertdialog"]')) {
      const box = dialog.getBoundingClientRect();
      if (box.left < -0.5 || box.right > width + 0.5 || dialog.scrollWidth > dialog.clientWidth + 1) {
        found.push(
          `a dialog spans ${Math.round(box.left)}–${Math.round(box.right)} px, its content ${dialog.scrollWidth} px in ${dialog.clientWidth}`,
        );
      }
    }
    if (found.length) {
      const past = [...document.body.querySelectorAll<HTMLElement>('*')].filter((element) => {
        const box = element.getBoundingClientRect();
        return (
          box.width > 0 &&
          box.right > width + 0.5 &&
          ![...element.children].some((child) => child.getBoundingClientRect().right > width + 0.5)
        );
      });
      for (const element of past.slice(0, 5)) {
        const box = element.getBoundingClientRect();
        found.push(
          `  ${element.tagName.toLowerCase()}.${String(element.className).slice(0, 80)} ends at ${Math.round(box.right)}: "${element.textContent?.slice(0, 60)}"`,
        );
      }
    }
    return found;
  });
}

/** Waits for the screen's own content, then checks it in both themes. */
async function checkScreen(page: Page, where: string, ready: () => Promise<unknown>, found: string[]): Promise<void> {
  await expect.poll(ready, { timeout: SLOW, message: `${where} shows its records` }).toBeTruthy();
  for (const theme of THEMES) {
    await page.emulateMedia({ colorScheme: theme });
    await expect
      .poll(() => page.evaluate(() => document.documentElement.classList.contains('dark')), { timeout: SLOW })
      .toBe(theme === 'dark');
    // A layout settles after its data: poll until nothing reaches past the edge, and record what still does.
    const last = await expect
      .poll(() => overflow(page), { timeout: 5_000 })
      .toEqual([])
      .then(() => [])
      .catch(async () => overflow(page));
    if (last.length) found.push(`${where} (${theme}):\n    ${last.join('\n    ')}`);
    await snap(page, `long-words-${where.replace(/[^a-z0-9]+/gi, '-')}-${theme}`);
  }
}

/** Whether the text shows somewhere on the page (a screen may also hold it where it is hidden, such as a phone's other layout). */
const visible = (page: Page, text: string) => () =>
  page.getByText(text).evaluateAll((elements) => elements.some((element) => element.checkVisibility()));

describe('long unbroken words on a phone', () => {
  test(
    "every record kind with a 35-letter word: each shop screen, its dialogs and the provider's screens stay as wide as a 390 px phone, light and dark",
    async () => {
      const shop = await createShop(server, 'longwords', undefined, {
        features: { pipeline: true, customers: true, calendar: true, admin: true, serviceRequests: true },
      });
      const api = `/api/${shop.subdomain}`;
      const c = `/crm/${shop.subdomain}`;
      const superAdmin = await signInSuperAdmin(server);
      const changed = await superAdmin.put(`/api/crm-instances/${shop.instance.id}`, {
        displayName: long('Shop'),
        description: `${long('About')} ${long('Second')}`,
        publicRequests: true,
      });
      expect(changed.status, changed.text).toBe(200);
      expect(
        (
          await shop.owner.put(`${api}/settings`, {
            shopName: long('Docs'),
            address: long('Street'),
            terms: long('Terms'),
          })
        ).status,
      ).toBe(200);
      await addUser(shop.owner, { username: unique('tech'), displayName: long('Tech'), pin: '2468' });
      const customer = await postOne(shop.owner, `${api}/customers`, {
        name: long('Customer'),
        email: longEmail('Mail'),
        phone: '5550104477',
        address: long('Address'),
        notes: long('Notes'),
      });
      expect((await shop.owner.put(`${api}/customers/${customer.id}/consent`, { emailConsent: true, smsConsent: false })).status).toBe(200);
      const vehicle = await postOne(shop.owner, `${api}/customers/${customer.id}/vehicles`, {
        make: long('Make'),
        model: long('Model'),
        year: 2019,
        notes: long('VehicleNotes'),
      });
      const appointment = new Date(Date.now() + 2 * 86_400_000);
      appointment.setUTCHours(9, 0, 0, 0);
      const job = await postOne(shop.owner, `${api}/pipeline`, {
        name: long('Customer'),
        customerId: customer.id,
        vehicleId: vehicle.id,
        part: long('Part'),
        makeModel: long('Vehicle'),
        tech: long('Tech'),
        csr: long('Csr'),
        notes: long('JobNotes'),
        stage: 'Scheduled',
        appointment: appointment.toISOString(),
        duration: 60,
      });
      // A change for the job's history and the audit log, and a line for its estimate.
      expect((await shop.owner.put(`${api}/pipeline/${job.id}`, { part: long('NewPart') })).status).toBe(200);
      await postOne(shop.owner, `${api}/pipeline/${job.id}/lines`, { kind: 'part', description: long('Line'), unitPrice: '19.99' });
      const sent = await shop.owner.post(`${api}/pipeline/${job.id}/estimate/send`, {});
      expect(sent.status, sent.text).toBeLessThan(300);
      const request = await postOne(shop.owner, `${api}/service-requests`, {
        customerName: long('Requester'),
        contactEmail: longEmail('Request'),
        vehicleType: long('RequestVehicle'),
        serviceType: 'Oil Change',
        scheduledDate: '2026-12-04',
        additionalNotes: long('RequestNotes'),
      });
      expect(
        (await shop.owner.put(`${api}/service-requests/${request.id}`, { ...request, additionalNotes: long('ChangedNotes') })).status,
      ).toBe(200);
      // A customer and a job deleted, for Deleted records.
      const gone = await postOne(shop.owner, `${api}/customers`, { name: long('Deleted') });
      const goneJob = await postOne(shop.owner, `${api}/pipeline`, { name: long('DeletedJob'), part: long('DeletedPart') });
      expect((await shop.owner.delete(`${api}/customers/${gone.id}`)).status).toBeLessThan(300);
      expect((await shop.owner.delete(`${api}/pipeline/${goneJob.id}`)).status).toBeLessThan(300);

      const found: string[] = [];
      const { page } = await signedInPage(browser, shop.owner);
      await page.setViewportSize(PHONE);
      const screens: Array<[string, string, () => Promise<unknown>]> = [
        ['dashboard', `${c}/dashboard`, visible(page, 'Recent Activity')],
        ['pipeline', `${c}/pipeline`, visible(page, long('NewPart'))],
        ['board', `${c}/pipeline?view=board`, visible(page, long('NewPart'))],
        ['estimate', `${c}/pipeline/${job.id}/estimate`, visible(page, long('Line'))],
        ['takings', `${c}/reports/takings`, () => page.getByRole('heading', { level: 1 }).isVisible()],
        ['customers', `${c}/customers`, visible(page, long('Customer'))],
        ['customer', `${c}/customers/${customer.id}`, visible(page, long('Notes'))],
        ['customer-edit', `${c}/customers/${customer.id}/edit`, () => page.getByLabel('Name').first().isVisible()],
        ['vehicle', `${c}/vehicles/${vehicle.id}`, visible(page, long('VehicleNotes'))],
        ['messages', `${c}/messages`, visible(page, longEmail('Mail'))],
        ['templates', `${c}/messages/templates`, () => page.getByRole('heading', { level: 1 }).isVisible()],
        ['service-list', `${c}/service-list`, visible(page, long('Requester'))],
        ['service-request', `/edit-service/${request.id}`, visible(page, long('ChangedNotes'))],
        ['admin', `${c}/admin`, visible(page, 'User Management')],
        ['insights', `${c}/insights`, () => page.getByRole('heading', { level: 1 }).isVisible()],
        ['shop-settings', `${c}/admin/shop`, () => page.getByRole('heading', { level: 1 }).isVisible()],
        ['audit', `${c}/admin/audit`, visible(page, long('Requester'))],
        ['deleted', `${c}/admin/deleted`, visible(page, long('DeletedJob'))],
        ['profile', '/profile', () => page.getByRole('heading', { level: 1 }).isVisible()],
      ];
      for (const [name, address, ready] of screens) {
        await page.emulateMedia({ colorScheme: 'light' });
        await page.goto(address);
        await checkScreen(page, name, ready, found);
      }
      // The calendar's views (in its address) on the appointment's day.
      const day = appointment.toISOString().slice(0, 10);
      for (const view of ['month', 'week', 'day']) {
        await page.emulateMedia({ colorScheme: 'light' });
        await page.goto(`${c}/calendar?view=${view}&date=${day}`);
        await checkScreen(page, `calendar-${view}`, () => page.locator('.crm-calendar .rbc-event').first().isVisible(), found);
      }
      // The job's dialog, opened from its card as staff on a phone do.
      await page.goto(`${c}/pipeline`);
      await page
        .getByRole('list', { name: 'Entries' })
        .getByRole('button', { name: long('Customer') })
        .first()
        .click();
      await checkScreen(page, 'job-dialog', () => page.getByRole('dialog').isVisible(), found);
      // The customer's estimate page, signed out.
      const visitor = await signedInPage(browser, superAdmin);
      await visitor.page.setViewportSize(PHONE);
      await visitor.page.goto(sent.body.link);
      await checkScreen(visitor.page, 'public-estimate', visible(visitor.page, long('Line')), found);
      await visitor.page.goto(`/${shop.subdomain}/request`);
      await checkScreen(visitor.page, 'public-request', () => visitor.page.getByRole('heading', { level: 1 }).isVisible(), found);
      // The provider's screens, its instance cards and their dialogs.
      for (const [name, address] of [
        ['provider-home', '/'],
        ['crm-selection', '/crm-selection'],
        ['crm-builder', '/crm-builder'],
      ] as const) {
        await visitor.page.emulateMedia({ colorScheme: 'light' });
        await visitor.page.goto(address);
        await checkScreen(visitor.page, name, () => visitor.page.getByRole('heading', { level: 1 }).isVisible(), found);
      }
      await visitor.page.emulateMedia({ colorScheme: 'light' });
      await visitor.page.goto('/crm-selection');
      const card = visitor.page
        .locator('article, li, [data-testid]')
        .filter({ hasText: long('Shop') })
        .last();
      await expect.poll(() => visitor.page.getByText(long('Shop')).first().isVisible(), { timeout: SLOW }).toBe(true);
      for (const [name, button] of [
        ['edit-instance', /^Edit/],
        ['instance-users', /Manage users/],
      ] as const) {
        await card.getByRole('button', { name: button }).first().click();
        await checkScreen(visitor.page, name, () => visitor.page.getByRole('dialog').isVisible(), found);
        await visitor.page.keyboard.press('Escape');
        await expect.poll(() => visitor.page.getByRole('dialog').count()).toBe(0);
        await visitor.page.emulateMedia({ colorScheme: 'light' });
      }
      expect(found, `wider than a 390 px phone:\n${found.join('\n')}`).toEqual([]);
    },
    LONG_TIMEOUT,
  );

  test(
    "with long words in its rows, a table's column headings on a desktop wrap only between words (its columns are at least as wide as them)",
    async () => {
      const shop = await createShop(server, 'headings', undefined, {
        features: { pipeline: true, customers: true, calendar: true, admin: true, serviceRequests: true },
      });
      const api = `/api/${shop.subdomain}`;
      const c = `/crm/${shop.subdomain}`;
      await postOne(shop.owner, `${api}/pipeline`, {
        name: long('Customer'),
        phone: '5550104477',
        part: long('Part'),
        makeModel: long('Vehicle'),
        quote: '1250.50',
        stage: 'Scheduled',
        appointment: new Date(Date.now() + 86_400_000).toISOString(),
      });
      await postOne(shop.owner, `${api}/service-requests`, {
        customerName: long('Requester'),
        contactEmail: longEmail('Request'),
        vehicleType: long('RequestVehicle'),
        serviceType: 'Oil Change',
        scheduledDate: '2026-12-04',
      });
      const { page } = await signedInPage(browser, shop.owner);
      for (const [where, address, ready] of [
        ['pipeline', `${c}/pipeline?view=table`, long('Part')],
        ['service-list', `${c}/service-list`, long('Requester')],
        ['audit', `${c}/admin/audit`, long('Requester')],
      ] as const) {
        for (const width of [1280, 1024]) {
          await page.setViewportSize({ width, height: 800 });
          await page.goto(address);
          await expect.poll(visible(page, ready), { timeout: SLOW, message: `${where} shows its rows` }).toBe(true);
          await expect
            .poll(() => page.locator('thead th').count(), { timeout: SLOW, message: `${where} shows a table` })
            .toBeGreaterThan(0);
          // Each word of each heading, as laid out: one that spans two lines was split inside it.
          const split = () =>
            page.evaluate(() => {
              const broken: string[] = [];
              for (const heading of document.querySelectorAll('thead th')) {
                const walker = document.createTreeWalker(heading, NodeFilter.SHOW_TEXT);
                for (let node = walker.nextNode(); node; node = walker.nextNode()) {
                  const text = node.textContent ?? '';
                  for (const match of text.matchAll(/\S+/g)) {
                    const range = document.createRange();
                    range.setStart(node, match.index);
                    range.setEnd(node, match.index + match[0].length);
                    const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
                    if (tops.size > 1) broken.push(match[0]);
                  }
                }
              }
              return broken;
            });
          await expect.poll(split, { timeout: 5_000, message: `${where} at ${width} px: headings split inside a word` }).toEqual([]);
          await snap(page, `table-headings-${where}-${width}`);
        }
      }
    },
    LONG_TIMEOUT,
  );
});
