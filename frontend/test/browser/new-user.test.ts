import type { Browser, Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { ApiClient, signInUser, type TestServer } from '../../../backend/test/support/server.ts';
import {
  addUser,
  createShop,
  newPage,
  postOne,
  serverAndBrowserForFile,
  signedInPage,
  SLOW,
  snap,
  TEST_TIMEOUT,
  unique,
} from './support.ts';

/**
 * What a new user met on every screen, class by class: the shop's clock (a Chicago shop seen
 * from a browser in Tokyo, 15 hours ahead), errors in view, links to the record, actions the
 * caller may do, dead ends, and state kept in the address.
 */
let server: TestServer;
let browser: Browser;

serverAndBrowserForFile((s, b) => ([server, browser] = [s, b]));

const SHOP_ZONE = 'America/Chicago';
const FAR_ZONE = 'Asia/Tokyo';
const dialog = (page: Page) => page.getByRole('dialog');

/** How the app words an instant by the shop's clock ('Dec 1, 2026, 2:00 PM'). */
const shopTime = (iso: string) =>
  new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short', timeZone: SHOP_ZONE }).format(new Date(iso));
/** The same with the zone named ('… 2:00 PM CST'), as the customer's estimate page writes it. */
const shopTimeNamed = (iso: string) =>
  new Intl.DateTimeFormat('en-US', {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZoneName: 'short',
    timeZone: SHOP_ZONE,
  }).format(new Date(iso));

describe("the shop's clock, seen from a browser far away", () => {
  test(
    'lists, the job dialog (its appointment box too), server-written activity and the audit log read and take Chicago times',
    async () => {
      const shop = await createShop(server, 'clock', undefined, { timeZone: SHOP_ZONE });
      // 20:00 UTC on Dec 1 is 2:00 PM in Chicago and 5:00 AM on Dec 2 in Tokyo.
      const job = await postOne(shop.owner, `/api/${shop.subdomain}/pipeline`, {
        name: 'Tia Tokyo',
        part: 'Brake pads',
        appointment: '2026-12-01T20:00:00Z',
      });
      const { page } = await signedInPage(browser, shop.owner, { timezoneId: FAR_ZONE });
      await page.goto(`/crm/${shop.subdomain}/pipeline?view=table`);
      const row = page.getByRole('row', { name: /Tia Tokyo/ });
      await expect.poll(() => row.textContent(), { timeout: SLOW }).toContain('Dec 1, 2026, 2:00 PM');
      await expect.poll(() => row.textContent()).not.toContain('Dec 2');

      // The job's own address opens its dialog; the appointment box holds the shop's wall clock.
      await page.goto(`/crm/${shop.subdomain}/pipeline?job=${job.id}`);
      const appointment = dialog(page).getByLabel('Appointment');
      await expect.poll(() => appointment.inputValue(), { timeout: SLOW }).toBe('2026-12-01T14:00');
      // Typed as 3:30 PM, it is saved as 3:30 PM in Chicago (21:30 UTC), not in Tokyo.
      await appointment.fill('2026-12-01T15:30');
      await dialog(page).getByRole('button', { name: 'Save Changes' }).click();
      await expect
        .poll(async () => (await shop.owner.get(`/api/${shop.subdomain}/pipeline/${job.id}`)).body.appointment, { timeout: SLOW })
        .toBe('2026-12-01T21:30:00.000Z');

      // A server-written text ("Rescheduled … for <UTC>") reads the shop's time in Recent Activity and the audit log.
      const current = await shop.owner.get(`/api/${shop.subdomain}/pipeline/${job.id}`);
      const moved = await shop.owner.request(
        'PATCH',
        `/api/${shop.subdomain}/pipeline/${job.id}/appointment`,
        { appointment: '2026-12-03T16:00:00Z' },
        { 'If-Match': current.headers.get('etag')! },
      );
      expect(moved.status).toBe(200);
      const rescheduled = `for ${shopTime('2026-12-03T16:00:00Z')}`;
      expect(rescheduled).toBe('for Dec 3, 2026, 10:00 AM');
      await page.goto(`/crm/${shop.subdomain}/dashboard`);
      const activity = page.getByRole('list', { name: 'Recent Activity' });
      await expect.poll(() => activity.textContent(), { timeout: SLOW }).toContain(rescheduled);
      await expect.poll(() => activity.textContent()).not.toContain('UTC');
      // Each line names its record and opens it: the job's line opens that job's dialog.
      await activity.getByRole('link', { name: new RegExp(rescheduled) }).click();
      await expect.poll(() => new URL(page.url()).searchParams.get('job'), { timeout: SLOW }).toBe(job.id);
      await expect.poll(() => dialog(page).getByLabel('Appointment').inputValue(), { timeout: SLOW }).toBe('2026-12-03T10:00');

      await page.goto(`/crm/${shop.subdomain}/admin/audit`);
      const audit = page.getByRole('main');
      await expect.poll(() => audit.textContent(), { timeout: SLOW }).toContain(rescheduled);
      // Its times are the shop's too: the job's creation, at its instant, by the Chicago clock.
      await expect.poll(() => audit.textContent()).toContain(shopTime(job.createdAt));
    },
    TEST_TIMEOUT,
  );

  test(
    "a change overwritten later offers no revert and says who overwrote it and when, by the shop's clock in words, never UTC",
    async () => {
      const shop = await createShop(server, 'revclock', undefined, { timeZone: SHOP_ZONE });
      const jobs = `/api/${shop.subdomain}/pipeline`;
      const job = await postOne(shop.owner, jobs, { name: 'Rex Revert', part: 'Brake pads' });
      expect((await shop.owner.put(`${jobs}/${job.id}`, { part: 'Rotors' })).status).toBe(200);
      const csrName = unique('csr');
      await addUser(shop.owner, { username: csrName, displayName: 'Chris CSR', pin: '2468' });
      const csr = await signInUser(server, shop.subdomain, csrName, '2468');
      expect((await csr.put(`${jobs}/${job.id}`, { part: 'Calipers' })).status).toBe(200);
      const history = await shop.owner.get(`${jobs}/${job.id}/history`);
      const later = (history.body as { userDisplayName: string; timestamp: string }[]).find((row) => row.userDisplayName === 'Chris CSR')!;

      const { page } = await signedInPage(browser, shop.owner, { timezoneId: FAR_ZONE });
      await page.goto(`/crm/${shop.subdomain}/pipeline?job=${job.id}`);
      await expect.poll(() => dialog(page).getByLabel('Part').inputValue(), { timeout: SLOW }).toBe('Calipers');
      await dialog(page).getByRole('button', { name: 'History' }).click();
      const panel = page.getByRole('dialog', { name: 'History for Rex Revert' });
      // Newest first: only Chris's Calipers can be reverted; the owner's Rotors, which it overwrote, says why not.
      const refusal = panel.getByTestId('revert-refused');
      await expect.poll(() => refusal.count(), { timeout: SLOW }).toBe(1);
      await expect.poll(() => panel.getByRole('button', { name: /^Revert the change of/ }).count()).toBe(1);
      await expect.poll(() => refusal.textContent()).toContain(`(by Chris CSR at ${shopTime(later.timestamp)})`);
      await expect.poll(() => refusal.textContent()).not.toMatch(/UTC|\d{4}-\d\d-\d\d/);
      await snap(page, 'revert-conflict-tokyo');
    },
    TEST_TIMEOUT,
  );
});

describe("the shop's clock on the customer's own pages", () => {
  test(
    "the public estimate page gives its times by the shop's clock, whatever the customer's browser says",
    async () => {
      const shop = await createShop(server, 'estclock', undefined, { timeZone: SHOP_ZONE });
      const job = await postOne(shop.owner, `/api/${shop.subdomain}/pipeline`, { name: 'Esme Estimate' });
      const read = await shop.owner.get(`/api/${shop.subdomain}/pipeline/${job.id}`);
      const added = await shop.owner.post(
        `/api/${shop.subdomain}/pipeline/${job.id}/lines`,
        { kind: 'part', description: 'Wiper blade set', unitPrice: '29.99' },
        { 'If-Match': read.headers.get('etag')! },
      );
      expect(added.status).toBe(201);
      const sent = await shop.owner.post(
        `/api/${shop.subdomain}/pipeline/${job.id}/estimate/send`,
        {},
        { 'If-Match': added.headers.get('etag')! },
      );
      expect(sent.status).toBeLessThan(300);
      const estimate = (await new ApiClient(server.url).get(`/api/public/estimates/${sent.body.link.split('/').pop()}`)).body;
      expect(estimate.shop.timeZone).toBe(SHOP_ZONE);
      const { page } = await newPage(browser, { baseURL: server.url, timezoneId: FAR_ZONE });
      await page.goto(sent.body.link);
      const main = page.getByRole('main');
      await expect.poll(() => main.textContent(), { timeout: SLOW }).toContain(`sent ${shopTimeNamed(estimate.sentAt)}`);
      await expect.poll(() => main.textContent()).toContain(`good until ${shopTimeNamed(estimate.expiresAt)}`);
      expect(shopTimeNamed(estimate.sentAt)).toMatch(/ C[SD]T$/);
      // The page is the shop's, not the software's: no product name or provider on it.
      await expect.poll(() => page.locator('body').textContent()).not.toMatch(/Shop CRM|©/);
    },
    TEST_TIMEOUT,
  );
});

describe('errors in view, and unsaved work', () => {
  test(
    'a job number already in use shows at the Job Number box, scrolled into view and focused; Cancel asks about unsaved changes',
    async () => {
      const shop = await createShop(server, 'inview');
      await postOne(shop.owner, `/api/${shop.subdomain}/pipeline`, { name: 'First', jobNumber: 'A-100' });
      const { page } = await signedInPage(browser, shop.owner);
      await page.setViewportSize({ width: 1366, height: 900 });
      await page.goto(`/crm/${shop.subdomain}/pipeline`);
      await page.getByRole('button', { name: 'Add New Entry' }).click();
      const number = dialog(page).getByLabel('Job Number');
      await number.fill('A-100');
      await dialog(page).getByLabel('Notes').fill('Second one');
      await dialog(page).getByRole('button', { name: 'Add Entry' }).click();
      await expect.poll(() => number.getAttribute('aria-invalid'), { timeout: SLOW }).toBe('true');
      await expect.poll(() => dialog(page).getByText('Job number A-100 is already in use').isVisible()).toBe(true);
      await expect.poll(() => number.evaluate((element) => element === document.activeElement)).toBe(true);
      await expect
        .poll(() =>
          number.evaluate((element) => {
            const box = element.getBoundingClientRect();
            return box.top >= 0 && box.bottom <= window.innerHeight;
          }),
        )
        .toBe(true);

      // Cancel with unsaved changes asks, like the X and the backdrop.
      await dialog(page).getByRole('button', { name: 'Cancel', exact: true }).click();
      const ask = page.getByRole('alertdialog');
      await expect.poll(() => ask.getByText(/unsaved changes/).count()).toBe(1);
      await ask.getByRole('button', { name: 'Keep Editing' }).click();
      await expect.poll(() => number.inputValue()).toBe('A-100');
      await dialog(page).getByRole('button', { name: 'Cancel', exact: true }).click();
      await page.getByRole('alertdialog').getByRole('button', { name: 'Close Without Saving' }).click();
      await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
    },
    TEST_TIMEOUT,
  );

  test(
    'an empty Add Entry scrolls its message into view on a short screen',
    async () => {
      const shop = await createShop(server, 'blankview');
      const { page } = await signedInPage(browser, shop.owner);
      await page.setViewportSize({ width: 1366, height: 600 });
      await page.goto(`/crm/${shop.subdomain}/pipeline`);
      await page.getByRole('button', { name: 'Add New Entry' }).click();
      await dialog(page).getByRole('button', { name: 'Add Entry' }).click();
      const message = dialog(page).getByText('At least one field must be filled out');
      await expect
        .poll(() =>
          message.evaluate((element) => {
            const box = element.getBoundingClientRect();
            return box.top >= 0 && box.bottom <= window.innerHeight;
          }),
        )
        .toBe(true);
    },
    TEST_TIMEOUT,
  );
});

describe('links that lead to the record', () => {
  test(
    "a customer's jobs open each job; the pipeline narrows to the customer; the job dialog names and links its customer",
    async () => {
      const shop = await createShop(server, 'links');
      const customer = await postOne(shop.owner, `/api/${shop.subdomain}/customers`, { name: 'Lena Link', phone: '(555) 010-2000' });
      const job = await postOne(shop.owner, `/api/${shop.subdomain}/pipeline`, {
        name: 'Lena Link',
        part: 'Alternator',
        customerId: customer.id,
      });
      const otto = await postOne(shop.owner, `/api/${shop.subdomain}/pipeline`, { name: 'Otto Other', part: 'Wipers' });
      const { page } = await signedInPage(browser, shop.owner);
      await page.goto(`/crm/${shop.subdomain}/customers/${customer.id}`);
      await page.getByRole('link', { name: /Job #\d+ · Alternator/ }).click();
      await expect.poll(() => new URL(page.url()).searchParams.get('job'), { timeout: SLOW }).toBe(job.id);
      await expect.poll(() => dialog(page).getByLabel('Part').inputValue(), { timeout: SLOW }).toBe('Alternator');
      // The dialog names the linked customer, and the name leads back to the customer.
      await dialog(page).getByRole('link', { name: 'Lena Link' }).click();
      await expect.poll(() => page.url(), { timeout: SLOW }).toContain(`/customers/${customer.id}`);
      await page.getByRole('link', { name: "Open this customer's jobs in the pipeline" }).click();
      await expect.poll(() => page.getByTestId('customer-filter').textContent(), { timeout: SLOW }).toContain('Lena Link');
      await expect.poll(() => page.getByText('Alternator').count(), { timeout: SLOW }).toBeGreaterThan(0);
      await expect.poll(() => page.getByText('Otto Other').count()).toBe(0);
      await page.getByRole('button', { name: 'Show all jobs' }).click();
      await expect.poll(() => page.getByText('Otto Other').count(), { timeout: SLOW }).toBeGreaterThan(0);

      // Otto's job linked to Lena afterwards: the audit log names the customer, never a bare 'Linked customer'.
      expect((await shop.owner.put(`/api/${shop.subdomain}/pipeline/${otto.id}`, { customerId: customer.id })).status).toBe(200);
      await page.goto(`/crm/${shop.subdomain}/admin/audit`);
      const audit = page.getByRole('main');
      await expect.poll(() => audit.textContent(), { timeout: SLOW }).toContain('Customer: Lena Link');
      await expect.poll(() => audit.textContent()).not.toContain('Linked customer');
    },
    TEST_TIMEOUT,
  );
});

describe('only what the caller may do', () => {
  test(
    "a user manager gets no actions on an admin's row and no role changes; the list says each user's permissions",
    async () => {
      const shop = await createShop(server, 'perms');
      const managerName = unique('mgr');
      const readerName = unique('rdr');
      const managerId = await addUser(shop.owner, { username: managerName, pin: '2468' });
      const readerId = await addUser(shop.owner, { username: readerName, pin: '1357' });
      expect((await shop.owner.patch(`/api/admin/users/${managerId}/permissions`, { canManageUsers: true })).status).toBe(200);
      expect((await shop.owner.patch(`/api/admin/users/${readerId}/permissions`, { canWrite: false })).status).toBe(200);
      const manager = await signInUser(server, shop.subdomain, managerName, '2468');
      const { page } = await signedInPage(browser, manager);
      await page.setViewportSize({ width: 1366, height: 900 });
      await page.goto(`/crm/${shop.subdomain}/admin`);
      const row = (name: string) => page.getByRole('row', { name: new RegExp(name) });
      await expect.poll(() => row('owner').textContent(), { timeout: SLOW }).toContain('Only an admin can change an admin account.');
      await expect.poll(() => row('owner').getByRole('button').count()).toBe(0);
      await expect.poll(() => row(readerName).getByRole('button', { name: 'Lock' }).count()).toBe(1);
      await expect.poll(() => page.getByRole('button', { name: /Make (Admin|User)/ }).count()).toBe(0);
      await expect.poll(() => row(readerName).getByTestId('user-permissions').textContent()).toBe('Read only');
      await expect.poll(() => row('owner').getByTestId('user-permissions').textContent()).toBe('All permissions');
      await expect.poll(() => row(managerName).getByTestId('user-permissions').textContent()).toContain('manage users');
      // A new user made by a manager is a regular user: no Role choice that the server would refuse.
      await page.getByRole('button', { name: 'Add New User' }).click();
      await expect.poll(() => dialog(page).getByTestId('new-user-role').textContent()).toContain('Only an admin can add an admin');
      await expect.poll(() => dialog(page).getByLabel('Role').count()).toBe(0);
    },
    TEST_TIMEOUT,
  );
});

describe('only what the caller may do, for a reader', () => {
  test(
    "a read-only user's job lines read as text, not boxes to type in, and the calendar's help offers no dragging or creating",
    async () => {
      const shop = await createShop(server, 'reader', undefined, {
        features: { pipeline: true, customers: true, calendar: true, admin: true },
      });
      const readerName = unique('rdr');
      const readerId = await addUser(shop.owner, { username: readerName, pin: '1357' });
      expect((await shop.owner.patch(`/api/admin/users/${readerId}/permissions`, { canWrite: false })).status).toBe(200);
      const job = await postOne(shop.owner, `/api/${shop.subdomain}/pipeline`, {
        name: 'Rhea Reader',
        appointment: '2026-12-01T16:00:00Z',
      });
      const read = await shop.owner.get(`/api/${shop.subdomain}/pipeline/${job.id}`);
      const added = await shop.owner.post(
        `/api/${shop.subdomain}/pipeline/${job.id}/lines`,
        { kind: 'part', description: 'Cabin filter', unitPrice: '19.99' },
        { 'If-Match': read.headers.get('etag')! },
      );
      expect(added.status).toBe(201);
      const reader = await signInUser(server, shop.subdomain, readerName, '1357');
      const { page } = await signedInPage(browser, reader);
      await page.goto(`/crm/${shop.subdomain}/pipeline?job=${job.id}`);
      const description = dialog(page).getByLabel('Description');
      await expect.poll(() => description.inputValue(), { timeout: SLOW }).toBe('Cabin filter');
      await expect.poll(() => description.getAttribute('readonly')).not.toBeNull();
      // No border and no fill: it reads as text.
      await expect.poll(() => description.evaluate((element) => getComputedStyle(element).borderTopColor)).toBe('rgba(0, 0, 0, 0)');

      await page.goto(`/crm/${shop.subdomain}/calendar?view=week&date=2026-12-01`);
      const help = page.getByTestId('calendar-how-to');
      await expect.poll(() => help.textContent(), { timeout: SLOW }).toContain('Click an appointment to see its job.');
      await expect.poll(() => help.textContent()).not.toMatch(/Drag|create/);

      // The audit log words the line's price in dollars ('$19.99', not a bare '19.99').
      const owner = await signedInPage(browser, shop.owner);
      await owner.page.goto(`/crm/${shop.subdomain}/admin/audit?q=Cabin`);
      const audit = owner.page.getByRole('main');
      await expect.poll(() => audit.textContent(), { timeout: SLOW }).toContain('Cabin filter (part): unit price: $19.99');
    },
    TEST_TIMEOUT,
  );

  test(
    "at 1366 px an admin's every navigation link, Admin last, is on screen (not hidden in a sideways scroll)",
    async () => {
      const shop = await createShop(server, 'navfit', undefined, {
        features: { pipeline: true, customers: true, calendar: true, admin: true, serviceRequests: true },
      });
      const { page } = await signedInPage(browser, shop.owner);
      await page.setViewportSize({ width: 1366, height: 900 });
      await page.goto(`/crm/${shop.subdomain}/dashboard`);
      const nav = page.getByRole('navigation', { name: 'Main' });
      const admin = nav.getByRole('link', { name: 'Admin' });
      await expect.poll(() => admin.count(), { timeout: SLOW }).toBe(1);
      await expect
        .poll(() =>
          admin.evaluate((element) => {
            const box = element.getBoundingClientRect();
            const row = element.closest('ul')!;
            return box.right <= window.innerWidth && row.scrollWidth <= row.clientWidth;
          }),
        )
        .toBe(true);
    },
    TEST_TIMEOUT,
  );
});

describe('no layout overflow on a phone', () => {
  test(
    "the day view's technician lanes scroll inside the calendar: the page stays as wide as a 390 px phone",
    async () => {
      const shop = await createShop(server, 'lanesfit', undefined, {
        features: { pipeline: true, customers: true, calendar: true, admin: true },
      });
      for (const name of ['Avery Lane', 'Blake Lane', 'Casey Lane']) {
        await addUser(shop.owner, { username: unique('tech'), displayName: name, pin: '2468' });
      }
      const { page } = await signedInPage(browser, shop.owner, { phone: true });
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto(`/crm/${shop.subdomain}/calendar?view=day&date=2026-12-01&lanes=1`);
      await expect.poll(() => page.getByText('Casey Lane').count(), { timeout: SLOW }).toBeGreaterThan(0);
      await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    },
    TEST_TIMEOUT,
  );

  test(
    "a user's long display name is cut short in its card: the Admin page stays as wide as a 390 px phone, Add New User on screen",
    async () => {
      const shop = await createShop(server, 'longname');
      const displayName = 'Maximiliana Featherstonehaugh-Wolfeschlegelsteinhausen';
      await addUser(shop.owner, { username: unique('tech'), displayName, pin: '2468' });
      const { page } = await signedInPage(browser, shop.owner, { phone: true });
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto(`/crm/${shop.subdomain}/admin`);
      const cards = page.getByRole('list', { name: 'Users' });
      await expect.poll(() => cards.getByText(displayName).count(), { timeout: SLOW }).toBe(1);
      await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
      const addUserButton = page.getByRole('button', { name: 'Add New User' });
      await expect.poll(() => addUserButton.evaluate((element) => element.getBoundingClientRect().right <= window.innerWidth)).toBe(true);
    },
    TEST_TIMEOUT,
  );

  test(
    "a customer named by an email (one long word) wraps inside the cards and headings: Customers, the customer's page and the Pipeline stay as wide as a 390 px phone",
    async () => {
      const shop = await createShop(server, 'longword');
      // No space or hyphen to break at: the browser may only break it anywhere.
      const name = 'christopher.featherstonehaugh@montgomeryautoworks.example';
      const customer = await postOne(shop.owner, `/api/${shop.subdomain}/customers`, { name });
      await postOne(shop.owner, `/api/${shop.subdomain}/pipeline`, { name, customerId: customer.id, part: 'Brake pads' });
      const { page } = await signedInPage(browser, shop.owner, { phone: true });
      await page.setViewportSize({ width: 390, height: 844 });
      const pageOverflow = () => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      for (const address of [
        `/crm/${shop.subdomain}/pipeline`,
        `/crm/${shop.subdomain}/customers`,
        `/crm/${shop.subdomain}/customers/${customer.id}`,
      ]) {
        await page.goto(address);
        await expect.poll(() => page.getByText(name, { exact: true }).count(), { timeout: SLOW }).toBeGreaterThan(0);
        await expect.poll(pageOverflow).toBeLessThanOrEqual(0);
      }
    },
    TEST_TIMEOUT,
  );

  test(
    "a request's offer of the customer with the same long email wraps it: the request's page stays as wide as a 390 px phone",
    async () => {
      const shop = await createShop(server, 'longoffer', undefined, {
        features: { pipeline: true, customers: true, calendar: true, admin: true, serviceRequests: true },
      });
      const email = 'christopher.featherstonehaugh.montgomery@autoworks.example';
      await postOne(shop.owner, `/api/${shop.subdomain}/customers`, { name: 'Chris Montgomery', email });
      const request = await postOne(shop.owner, `/api/${shop.subdomain}/service-requests`, {
        customerName: 'Chris Montgomery',
        contactEmail: email,
        vehicleType: '2019 Ford F-150',
      });
      const { page } = await signedInPage(browser, shop.owner, { phone: true });
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto(`/edit-service/${request.id}`);
      await expect.poll(() => page.getByRole('button', { name: 'Use this customer' }).count(), { timeout: SLOW }).toBe(1);
      await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    },
    TEST_TIMEOUT,
  );
});

describe('history and long words on a phone', () => {
  test(
    "a job's history names a line's fields in words and gives each value the phone's width; a long email does not widen a request's page",
    async () => {
      const shop = await createShop(server, 'phonehist', undefined, {
        features: { pipeline: true, customers: true, calendar: true, admin: true, serviceRequests: true },
      });
      const customer = await postOne(shop.owner, `/api/${shop.subdomain}/customers`, { name: 'Hana History' });
      const vehicle = await postOne(shop.owner, `/api/${shop.subdomain}/customers/${customer.id}/vehicles`, {
        year: 2018,
        make: 'Toyota',
        model: 'Highlander',
      });
      const job = await postOne(shop.owner, `/api/${shop.subdomain}/pipeline`, {
        name: 'Hana History',
        part: 'Brakes',
        customerId: customer.id,
        vehicleId: vehicle.id,
      });
      const read = await shop.owner.get(`/api/${shop.subdomain}/pipeline/${job.id}`);
      const added = await shop.owner.post(
        `/api/${shop.subdomain}/pipeline/${job.id}/lines`,
        { kind: 'part', description: 'Ceramic brake pad set', unitPrice: '89.95', quantity: 2 },
        { 'If-Match': read.headers.get('etag')! },
      );
      expect(added.status).toBe(201);
      const request = await postOne(shop.owner, `/api/${shop.subdomain}/service-requests`, {
        customerName: 'Walker Wong-Featherstonehaugh',
        contactEmail: 'walker.wong.featherstonehaugh@example.test',
        vehicleType: '2018 Toyota Highlander',
      });
      const { page } = await signedInPage(browser, shop.owner, { phone: true });
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto(`/crm/${shop.subdomain}/pipeline?job=${job.id}`);
      await dialog(page).getByRole('button', { name: 'History' }).click();
      const history = page.getByRole('dialog', { name: 'History for Hana History' });
      const price = history.getByText('Ceramic brake pad set (part): unit price');
      await expect.poll(() => price.count(), { timeout: SLOW }).toBe(1);
      await expect.poll(() => history.getByText(/unitPrice/).count()).toBe(0);
      // A new line has no 'before': its values are shown alone, each on one line (not a few letters wide).
      const row = history.locator('li li').filter({ hasText: 'Ceramic brake pad set (part): description' });
      await expect.poll(() => row.getByText('(empty)').count()).toBe(0);
      await expect.poll(() => row.locator('ins').evaluate((element) => element.getClientRects().length)).toBe(1);
      // The job's vehicle record reads in words, never as its id.
      await expect.poll(() => history.textContent()).toContain('Linked vehicle');
      await expect.poll(() => history.textContent()).not.toContain(vehicle.id);

      await page.goto(`/edit-service/${request.id}`);
      await expect.poll(() => page.getByText('walker.wong.featherstonehaugh@example.test').count(), { timeout: SLOW }).toBeGreaterThan(0);
      await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);

      // Recent Activity names a request's changed fields in words ('contact email', not 'contactEmail').
      const changed = await shop.owner.put(`/api/${shop.subdomain}/service-requests/${request.id}`, {
        contactEmail: 'walker@example.test',
        vehicleType: '2019 Toyota Highlander',
      });
      expect(changed.status, changed.text).toBe(200);
      await page.goto(`/crm/${shop.subdomain}/dashboard`);
      const activity = page.getByRole('list', { name: 'Recent Activity' });
      await expect.poll(() => activity.textContent(), { timeout: SLOW }).toContain(': contact email, vehicle type');
      await expect.poll(() => activity.textContent()).not.toMatch(/contactEmail|vehicleType/);
    },
    TEST_TIMEOUT,
  );
});

describe('whole words in the pipeline table', () => {
  test(
    "at 1366 px a job's part and vehicle read whole in the table, not cut to 'Front brak…'",
    async () => {
      const shop = await createShop(server, 'tablefit');
      await postOne(shop.owner, `/api/${shop.subdomain}/pipeline`, {
        name: 'Walker Wong-Featherstonehaugh',
        phone: '5550104040',
        part: 'Front brake pads and rotors',
        makeModel: '2018 Toyota Highlander',
        quote: '18025.30',
        appointment: '2026-12-01T20:00:00Z',
      });
      const { page } = await signedInPage(browser, shop.owner);
      await page.setViewportSize({ width: 1366, height: 900 });
      await page.goto(`/crm/${shop.subdomain}/pipeline?view=table`);
      const row = page.getByRole('row', { name: /Walker Wong/ });
      for (const text of ['Front brake pads and rotors', '2018 Toyota Highlander']) {
        const cell = row.getByText(text, { exact: true });
        await expect.poll(() => cell.count(), { timeout: SLOW }).toBe(1);
        // Not clamped: all of its text fits in the box it is drawn in.
        await expect.poll(() => cell.evaluate((element) => element.scrollHeight <= element.clientHeight), { message: text }).toBe(true);
      }
      // Nor does the table scroll sideways to reach the row's Delete.
      const table = page.getByRole('table');
      await expect
        .poll(() => table.evaluate((element) => element.parentElement!.scrollWidth <= element.parentElement!.clientWidth))
        .toBe(true);
      await expect.poll(() => row.getByRole('button', { name: /^Delete / }).isVisible()).toBe(true);
    },
    TEST_TIMEOUT,
  );
});

describe('crowded week slots on a phone', () => {
  test(
    "two overlapping jobs in a phone's week are one readable 'N appointments' block that opens the day",
    async () => {
      const shop = await createShop(server, 'phoneweek', undefined, {
        timeZone: SHOP_ZONE,
        features: { pipeline: true, customers: true, calendar: true, admin: true },
      });
      await postOne(shop.owner, `/api/${shop.subdomain}/pipeline`, { name: 'Olive Overlap', appointment: '2026-12-01T16:00:00Z' });
      await postOne(shop.owner, `/api/${shop.subdomain}/pipeline`, { name: 'Oscar Overlap', appointment: '2026-12-01T16:30:00Z' });
      await postOne(shop.owner, `/api/${shop.subdomain}/pipeline`, {
        name: 'Alex Smith',
        part: 'Brake pads',
        appointment: '2026-12-03T16:00:00Z',
      });
      const { page } = await signedInPage(browser, shop.owner, { phone: true, timezoneId: FAR_ZONE });
      await page.setViewportSize({ width: 390, height: 844 });
      await page.goto(`/crm/${shop.subdomain}/calendar?view=week&date=2026-12-01`);
      // Named '2 appointments' (its tooltip and for screen readers); on a seventh of 390 px it shows the count alone, on one line.
      const block = page.locator('[title="2 appointments"]');
      await expect.poll(() => block.count(), { timeout: SLOW }).toBe(1);
      await expect.poll(() => page.getByText('2 appointments', { exact: true }).count()).toBe(1);
      const shown = block.locator('[aria-hidden="true"]');
      await expect.poll(() => shown.textContent()).toBe('2');
      await expect.poll(() => shown.evaluate((element) => element.getClientRects().length)).toBe(1);
      await expect.poll(() => page.getByText(/Olive Overlap/).count()).toBe(0);
      // The day headings read whole at 390 and 360 px, weekday over date: none is cut ('Mon 30' clipped to 'Mon').
      const headings = page.locator('.rbc-time-header-content .rbc-header');
      for (const width of [390, 360]) {
        await page.setViewportSize({ width, height: 844 });
        await expect.poll(() => headings.allTextContents(), { timeout: SLOW }).toContain('Tue 1');
        await expect
          .poll(() =>
            headings.evaluateAll((cells) =>
              cells
                .filter((cell) => cell.scrollWidth > cell.clientWidth || cell.scrollHeight > cell.clientHeight)
                .map((cell) => cell.textContent),
            ),
          )
          .toEqual([]);
      }
      // A lone appointment in a phone's column shows the customer's initials on one line, not its words broken letter by letter.
      const lone = page.locator('[title="Alex Smith - Brake pads"] [data-initials]');
      await expect.poll(() => lone.textContent(), { timeout: SLOW }).toBe('AS');
      await expect.poll(() => lone.isVisible()).toBe(true);
      // One line, whole: no taller than a line of text, no wider than its block.
      expect(
        await lone.evaluate((element) => ({
          oneLine: element.getBoundingClientRect().height < parseFloat(getComputedStyle(element).lineHeight) * 1.5,
          whole: element.scrollWidth <= element.clientWidth,
        })),
      ).toEqual({ oneLine: true, whole: true });
      await snap(page, 'calendar-week-phone-360');
      await block.click();
      await expect.poll(() => new URL(page.url()).searchParams.get('view'), { timeout: SLOW }).toBe('day');
      expect(new URL(page.url()).searchParams.get('date')).toBe('2026-12-01');
      await expect.poll(() => page.getByText(/Olive Overlap/).count(), { timeout: SLOW }).toBeGreaterThan(0);
    },
    TEST_TIMEOUT,
  );
});

describe('no dead ends', () => {
  test(
    "after sign-out, /profile, /settings, /edit-service and a 404's Go home lead to the shop's sign-in, never the provider's",
    async () => {
      const shop = await createShop(server, 'deadend');
      const { page } = await signedInPage(browser, shop.owner);
      await page.goto(`/crm/${shop.subdomain}/nothing-here-at-all`);
      await page.getByRole('link', { name: 'Go home' }).click();
      await page.waitForURL(`**/crm/${shop.subdomain}/dashboard`, { timeout: SLOW });
      await page.getByRole('button', { name: 'Account menu' }).click();
      await page.getByRole('menuitem', { name: 'Sign out' }).click();
      await page.waitForURL(`**/crm/${shop.subdomain}`, { timeout: SLOW });
      // A reload forgets the session's memory; the browser still knows its shop.
      for (const address of ['/profile', '/settings', '/edit-service/00000000-0000-4000-8000-000000000000']) {
        await page.goto(address);
        await expect.poll(() => new URL(page.url()).pathname, { timeout: SLOW }).toBe(`/crm/${shop.subdomain}`);
      }
      await page.goto('/no/such/page');
      await page.getByRole('link', { name: 'Go home' }).click();
      await expect.poll(() => new URL(page.url()).pathname, { timeout: SLOW }).toBe(`/crm/${shop.subdomain}`);
    },
    TEST_TIMEOUT,
  );
});

describe('signed-out pages say what went wrong in words', () => {
  test(
    'a forged unsubscribe link opened in a browser is a page saying the link is not valid, with no Unsubscribe button',
    async () => {
      const { page } = await newPage(browser, { baseURL: server.url, colorScheme: 'dark' });
      const response = await page.goto('/api/public/messages/unsubscribe?token=forged.token');
      expect(response?.status()).toBe(404);
      await expect.poll(() => page.getByRole('heading', { name: 'Link not valid' }).count(), { timeout: SLOW }).toBe(1);
      await expect.poll(() => page.getByText('This unsubscribe link is not valid').count()).toBe(1);
      await expect.poll(() => page.getByRole('button', { name: 'Unsubscribe' }).count()).toBe(0);
    },
    TEST_TIMEOUT,
  );
});

describe('state in the address', () => {
  test(
    "the calendar's view and day, and the audit log's filters, survive a reload",
    async () => {
      const shop = await createShop(server, 'address', undefined, {
        timeZone: SHOP_ZONE,
        features: { pipeline: true, customers: true, calendar: true, admin: true },
      });
      const { page } = await signedInPage(browser, shop.owner, { timezoneId: FAR_ZONE });
      await page.goto(`/crm/${shop.subdomain}/calendar?view=week&date=2026-12-01`);
      const label = page.getByTestId('calendar-label');
      await expect.poll(() => label.textContent(), { timeout: SLOW }).toBe('November – December 2026');
      await page.getByRole('button', { name: 'Next' }).click();
      await expect.poll(() => new URL(page.url()).searchParams.get('date')).toBe('2026-12-08');
      await page.getByRole('group', { name: 'View' }).getByRole('button', { name: 'Day' }).click();
      // The reload must come after the address has taken the view (on a busy machine it lags the click).
      await expect.poll(() => new URL(page.url()).searchParams.get('view'), { timeout: SLOW }).toBe('day');
      await page.reload();
      await expect.poll(() => page.getByText('Tuesday, December 8, 2026').count(), { timeout: SLOW }).toBe(1);
      expect(new URL(page.url()).searchParams.get('view')).toBe('day');

      await page.goto(`/crm/${shop.subdomain}/admin/audit`);
      await page.getByLabel('Search').fill('Owner');
      await expect.poll(() => new URL(page.url()).searchParams.get('q'), { timeout: SLOW }).toBe('Owner');
      await page.reload();
      await expect.poll(() => page.getByLabel('Search').inputValue(), { timeout: SLOW }).toBe('Owner');
    },
    TEST_TIMEOUT,
  );
});
