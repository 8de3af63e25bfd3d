import { DateTime } from 'luxon';
import type { Browser, Page } from 'playwright-core';
import { describe, expect, onTestFinished, test } from 'vitest';
import { type ApiClient, signInSuperAdmin, signInUser, type TestServer } from '../../../backend/test/support/server.ts';
import {
  addUser,
  postOne,
  serverAndBrowserForFile,
  shareSession,
  signedInPage,
  SLOW,
  snap,
  snapViewport,
  TEST_TIMEOUT,
  toastTexts,
  unique,
} from './support.ts';

// One server and one browser for the file; every test makes its own shop, records and browser context.
let server: TestServer;
let browser: Browser;
serverAndBrowserForFile((s, b) => ([server, browser] = [s, b]));

/** The shops here keep time in Chicago; the machine (and some browsers below) are elsewhere. */
const ZONE = 'America/Chicago';

interface CalendarShop {
  subdomain: string;
  owner: ApiClient;
}

/** A shop with the calendar on (off by default) in ZONE, its owner signed in through the API. */
async function calendarShop(prefix: string): Promise<CalendarShop> {
  const subdomain = unique(prefix);
  const superAdmin = await signInSuperAdmin(server);
  const res = await superAdmin.post('/api/crm-instances', {
    name: subdomain.toUpperCase(),
    displayName: `${subdomain} Auto`,
    subdomain,
    features: { pipeline: true, customers: true, calendar: true, admin: true },
    timeZone: ZONE,
    adminUsername: 'owner',
    adminDisplayName: 'Owner',
    adminPin: '1234',
  });
  // Created but not yet projected answers 404 on a busy machine: sign-in then waits for it.
  if (res.status !== 201 && res.status !== 404) throw new Error(`instance creation failed: ${res.status} ${res.text}`);
  let owner: ApiClient | null = null;
  const deadline = Date.now() + SLOW;
  while (!owner) {
    owner = await signInUser(server, subdomain, 'owner', '1234').catch((error: unknown) => {
      if (Date.now() > deadline) throw error;
      return null;
    });
    if (!owner) await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return { subdomain, owner };
}

/** Today at `hour` in the shop's zone (a weekday, so week and month views show it with today). */
const todayAt = (hour: number, minute = 0, days = 0) =>
  DateTime.now().setZone(ZONE).startOf('day').plus({ days }).set({ hour, minute }).toUTC().toISO()!;

async function book(shop: CalendarShop, fields: Record<string, unknown>): Promise<any> {
  return await postOne(shop.owner, `/api/${shop.subdomain}/pipeline`, { phone: '3125550100', stage: 'Scheduled', ...fields });
}

async function job(shop: CalendarShop, id: string): Promise<any> {
  return (await shop.owner.get(`/api/${shop.subdomain}/pipeline/${id}`)).body;
}

async function openCalendar(page: Page, shop: CalendarShop, view?: 'Day' | 'Week' | 'Month'): Promise<void> {
  await page.goto(`/crm/${shop.subdomain}/calendar`);
  await expect.poll(() => page.getByRole('heading', { name: 'Calendar', level: 1 }).count(), { timeout: SLOW }).toBe(1);
  await expect.poll(() => page.getByText(/^\d+ scheduled jobs?/).count(), { timeout: SLOW }).toBe(1);
  if (view) await page.getByRole('group', { name: 'View' }).getByRole('button', { name: view }).click();
}

/**
 * Clicks the quarter hour at `hour:minute` in the `column`th day (or lane) column of the week
 * or day view. The events layer lies over the slots, so the click goes where the slot is, as a
 * user's would; the calendar works out the slot from where it landed.
 */
async function clickSlot(page: Page, column: number, hour: number, minute: number): Promise<void> {
  const slot = page
    .locator('.rbc-day-slot')
    .nth(column)
    .locator('.rbc-time-slot')
    .nth((hour - 8) * 4 + minute / 15);
  await slot.scrollIntoViewIfNeeded();
  const box = (await slot.boundingBox())!;
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
}

const eventBlock = (page: Page, title: string) => page.locator('.rbc-event', { hasText: title });

/** Presses on `from`, moves to the point in steps (the calendar starts a drag after a few pixels), releases. */
async function dragTo(page: Page, from: { x: number; y: number }, to: { x: number; y: number }): Promise<void> {
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(from.x + 4, from.y + 4, { steps: 2 });
  await page.mouse.move(to.x, to.y, { steps: 12 });
  await page.mouse.up();
}

async function centre(locator: ReturnType<Page['locator']>): Promise<{ x: number; y: number }> {
  await locator.scrollIntoViewIfNeeded();
  const box = (await locator.boundingBox())!;
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

/** Where a quarter hour of a day (or lane) column is on screen. */
async function slotPoint(page: Page, column: number, hour: number, minute: number): Promise<{ x: number; y: number }> {
  const slot = page
    .locator('.rbc-day-slot')
    .nth(column)
    .locator('.rbc-time-slot')
    .nth((hour - 8) * 4 + minute / 15);
  return await centre(slot);
}

/** Today's column in the week view (weeks run Sunday to Saturday), in the shop's zone. */
const todayColumn = () => DateTime.now().setZone(ZONE).weekday % 7;

const localInput = (iso: string) => DateTime.fromISO(iso, { zone: ZONE }).toFormat("yyyy-LL-dd'T'HH:mm");

/** A busy day: three of today's appointments (month: two then "+1 more"), one tomorrow, one with no tech. */
async function seedWeek(shop: CalendarShop): Promise<Record<string, any>> {
  await addUser(shop.owner, { username: 'tina', displayName: 'Tina Tech', pin: '2222' });
  await addUser(shop.owner, { username: 'mike', displayName: 'Mike Mechanic', pin: '3333' });
  const seeded: Record<string, any> = {};
  const rows: Array<[string, Record<string, unknown>]> = [
    ['Dana', { name: 'Dana Diesel', part: 'Brake pads', jobType: 'Mobile', appointment: todayAt(9), duration: 90, tech: 'Tina Tech' }],
    ['Evan', { name: 'Evan Exhaust', part: 'Muffler', jobType: 'In Shop', appointment: todayAt(11), duration: 60, tech: 'Mike Mechanic' }],
    ['Faye', { name: 'Faye Filter', part: 'Oil change', jobType: 'Pickup', appointment: todayAt(14), duration: 30 }],
    [
      'Gus',
      { name: 'Gus Gasket', part: 'Head gasket', jobType: 'Delivery', appointment: todayAt(10, 0, 1), duration: 120, tech: 'Tina Tech' },
    ],
  ];
  for (const [key, fields] of rows) seeded[key] = await book(shop, fields);
  return seeded;
}

describe('calendar', () => {
  test(
    'screens: month, week and day (with lanes) at desktop and phone sizes, light and dark',
    async () => {
      const shop = await calendarShop('calsnap');
      await seedWeek(shop);
      for (const colorScheme of ['light', 'dark'] as const) {
        const { page } = await signedInPage(browser, shop.owner, { colorScheme });
        await openCalendar(page, shop, 'Month');
        await expect.poll(() => eventBlock(page, 'Dana Diesel - Brake pads').count()).toBeGreaterThan(0);
        // Today has three: a month cell shows two, then '+1 more'.
        await expect.poll(() => eventBlock(page, '+1 more').count()).toBe(1);
        await expect.poll(() => eventBlock(page, 'Faye Filter').count()).toBe(0);
        await snap(page, `calendar-month-desktop-${colorScheme}`);
        await page.getByRole('group', { name: 'View' }).getByRole('button', { name: 'Week' }).click();
        await expect.poll(() => eventBlock(page, 'Evan Exhaust - Muffler').count()).toBe(1);
        await snap(page, `calendar-week-desktop-${colorScheme}`);
        await page.getByRole('group', { name: 'View' }).getByRole('button', { name: 'Day' }).click();
        await page.getByRole('button', { name: 'Technician lanes' }).click();
        await expect.poll(() => page.locator('.rbc-row-resource .rbc-header', { hasText: 'Tina Tech' }).count()).toBe(1);
        await snap(page, `calendar-day-lanes-desktop-${colorScheme}`);

        const phone = await signedInPage(browser, shop.owner, { colorScheme, phone: true });
        await phone.page.setViewportSize({ width: 390, height: 844 });
        await openCalendar(phone.page, shop);
        // The day view is a phone's first.
        await expect.poll(() => phone.page.getByRole('button', { name: 'Day', pressed: true }).count()).toBe(1);
        await snap(phone.page, `calendar-day-phone-${colorScheme}`);
        await phone.page.getByRole('group', { name: 'View' }).getByRole('button', { name: 'Month' }).click();
        await expect.poll(() => eventBlock(phone.page, '+1 more').count()).toBe(1);
        await snap(phone.page, `calendar-month-phone-${colorScheme}`);
        await phone.page.getByRole('group', { name: 'View' }).getByRole('button', { name: 'Day' }).click();
        await clickSlot(phone.page, 0, 13, 0);
        const dialog = phone.page.getByRole('dialog', { name: 'Create New Appointment' });
        await expect.poll(() => dialog.count()).toBe(1);
        // Past its opening animation.
        await expect.poll(() => dialog.evaluate((element) => getComputedStyle(element).opacity)).toBe('1');
        await phone.page.waitForTimeout(300);
        await snapViewport(phone.page, `calendar-create-phone-${colorScheme}`);
      }
    },
    TEST_TIMEOUT,
  );

  test(
    'create by clicking an empty slot: the time filled in, the customer autocomplete, required fields, a Scheduled job',
    async () => {
      const shop = await calendarShop('calnew');
      const customer = await postOne(shop.owner, `/api/${shop.subdomain}/customers`, {
        name: 'Hana Hybrid',
        phone: '3125550142',
        vehicles: '2021 Toyota Prius',
      });
      const { page } = await signedInPage(browser, shop.owner);
      await openCalendar(page, shop, 'Week');
      await clickSlot(page, todayColumn(), 10, 0);
      const dialog = page.getByRole('dialog', { name: 'Create New Appointment' });
      await expect.poll(() => dialog.count()).toBe(1);
      await expect.poll(() => dialog.getByLabel('Appointment Date & Time').inputValue()).toBe(localInput(todayAt(10)));

      await dialog.getByRole('button', { name: 'Create Appointment' }).click();
      for (const message of ['Customer Name is required', 'Phone is required', 'Part/Service is required']) {
        await expect.poll(() => dialog.getByText(message).count()).toBe(1);
      }
      // Each required box is marked invalid (the red border), the customer autocomplete too.
      for (const box of [
        dialog.getByRole('combobox', { name: 'Customer Name *' }),
        dialog.getByLabel('Phone *'),
        dialog.getByLabel('Part/Service *'),
      ]) {
        await expect.poll(() => box.getAttribute('aria-invalid')).toBe('true');
      }
      await expect
        .poll(() => dialog.getByRole('combobox', { name: 'Customer Name *' }).getAttribute('aria-describedby'))
        .toContain('-error');

      await dialog.getByRole('combobox', { name: 'Customer Name *' }).fill('Hana');
      await dialog.getByRole('option', { name: /Hana Hybrid/ }).click();
      await expect.poll(() => dialog.getByLabel('Phone *').inputValue()).toBe('312-555-0142');
      await expect.poll(() => dialog.getByLabel('Vehicle').inputValue()).toBe('2021 Toyota Prius');
      await dialog.getByLabel('Part/Service *').fill('Alignment');
      await dialog.getByRole('button', { name: 'Create Appointment' }).click();
      await expect.poll(() => dialog.count()).toBe(0);
      await expect.poll(() => eventBlock(page, 'Hana Hybrid - Alignment').count(), { timeout: SLOW }).toBe(1);

      const items = (await shop.owner.get(`/api/${shop.subdomain}/pipeline?q=Alignment`)).body.items;
      expect(items).toHaveLength(1);
      expect(items[0]).toMatchObject({
        stage: 'Scheduled',
        appointment: todayAt(10),
        duration: 60,
        jobType: 'In Shop',
        customerId: customer.id,
        csr: 'Owner',
      });
    },
    TEST_TIMEOUT,
  );

  test(
    'drag to another day in the month view keeps the time of day, and a reload shows it there',
    async () => {
      const shop = await calendarShop('caldrag');
      const dana = await book(shop, { name: 'Dana Diesel', part: 'Brake pads', appointment: todayAt(9, 30) });
      const { page } = await signedInPage(browser, shop.owner);
      await openCalendar(page, shop, 'Month');
      const block = eventBlock(page, 'Dana Diesel - Brake pads');
      await expect.poll(() => block.count()).toBe(1);
      // The day after in the same week row (the day before on a Saturday).
      const shift = todayColumn() === 6 ? -1 : 1;
      const row = page.locator('.rbc-month-row', { has: block });
      const target = await centre(row.locator('.rbc-day-bg').nth(todayColumn() + shift));
      await dragTo(page, await centre(block), target);
      const expected = todayAt(9, 30, shift);
      await expect.poll(async () => (await job(shop, dana.id)).appointment, { timeout: SLOW }).toBe(expected);

      await page.reload();
      await expect.poll(() => eventBlock(page, 'Dana Diesel - Brake pads').count(), { timeout: SLOW }).toBe(1);
      const moved = await centre(eventBlock(page, 'Dana Diesel - Brake pads'));
      const cell = (await page
        .locator('.rbc-month-row', { has: eventBlock(page, 'Dana Diesel') })
        .locator('.rbc-day-bg')
        .nth(todayColumn() + shift)
        .boundingBox())!;
      expect(moved.x).toBeGreaterThan(cell.x);
      expect(moved.x).toBeLessThan(cell.x + cell.width);
      const history = (await shop.owner.get(`/api/${shop.subdomain}/pipeline/${dana.id}/history`)).body;
      expect(history[0]).toMatchObject({ action: 'rescheduled' });
    },
    TEST_TIMEOUT,
  );

  test(
    'resize in the day view changes the duration; a refused move snaps back with a toast',
    async () => {
      const shop = await calendarShop('calsize');
      const evan = await book(shop, { name: 'Evan Exhaust', part: 'Muffler', appointment: todayAt(11), duration: 60 });
      const { page } = await signedInPage(browser, shop.owner);
      await openCalendar(page, shop, 'Day');
      const block = eventBlock(page, 'Evan Exhaust - Muffler');
      await expect.poll(() => block.count()).toBe(1);
      await block.hover();
      const anchor = block.locator('.rbc-addons-dnd-resize-ns-anchor').last();
      await dragTo(page, await centre(anchor), await slotPoint(page, 0, 13, 0));
      await expect.poll(async () => (await job(shop, evan.id)).duration, { timeout: SLOW }).toBe(120);
      await expect.poll(() => block.getByText('11:00 AM – 1:00 PM').count()).toBe(1);

      // The network refuses the next move: the block goes back where it was and a toast says so.
      await page.route('**/pipeline/*/appointment', (route) => route.abort());
      await dragTo(page, await centre(block.locator('.rbc-event-content')), await slotPoint(page, 0, 14, 0));
      await expect.poll(() => toastTexts(page), { timeout: SLOW }).toContain('Could not move the appointment');
      await expect.poll(() => block.getByText('11:00 AM – 1:00 PM').count()).toBe(1);
      expect((await job(shop, evan.id)).appointment).toBe(evan.appointment);
    },
    TEST_TIMEOUT,
  );

  test(
    'a duration a resize left outside the list (1 h 45 min) reads in words in Edit Appointment',
    async () => {
      const shop = await calendarShop('caldur');
      await book(shop, { name: 'Hal Hose', part: 'Radiator hose', appointment: todayAt(9), duration: 105 });
      const { page } = await signedInPage(browser, shop.owner);
      await openCalendar(page, shop, 'Day');
      await eventBlock(page, 'Hal Hose - Radiator hose').locator('.rbc-event-content').click();
      const dialog = page.getByRole('dialog', { name: 'Edit Appointment' });
      await expect.poll(() => dialog.count(), { timeout: SLOW }).toBe(1);
      await expect.poll(() => dialog.getByLabel('Duration').textContent()).toBe('1 h 45 min');
    },
    TEST_TIMEOUT,
  );

  test(
    'edit: clicking an appointment opens Edit Appointment; Save Changes, History and the full entry',
    async () => {
      const shop = await calendarShop('caledit');
      const gus = await book(shop, { name: 'Gus Gasket', part: 'Head gasket', appointment: todayAt(13), jobType: 'Delivery' });
      const { page } = await signedInPage(browser, shop.owner);
      await openCalendar(page, shop, 'Week');
      await eventBlock(page, 'Gus Gasket - Head gasket').click();
      const dialog = page.getByRole('dialog', { name: 'Edit Appointment' });
      await expect.poll(() => dialog.count()).toBe(1);
      await expect.poll(() => dialog.getByLabel('Phone').inputValue()).toBe('312-555-0100');
      await expect.poll(() => dialog.getByLabel('Appointment Date & Time').inputValue()).toBe(localInput(todayAt(13)));
      await dialog.getByLabel('Part/Service').fill('Water pump');
      await dialog.getByLabel('Notes').fill('Bring the old pump back');
      await dialog.getByRole('button', { name: 'Save Changes' }).click();
      await expect.poll(() => dialog.count()).toBe(0);
      await expect.poll(() => eventBlock(page, 'Gus Gasket - Water pump').count(), { timeout: SLOW }).toBe(1);
      await expect
        .poll(() => job(shop, gus.id))
        .toMatchObject({ part: 'Water pump', notes: 'Bring the old pump back', stage: 'Scheduled' });

      await eventBlock(page, 'Gus Gasket - Water pump').click();
      await expect.poll(() => dialog.count()).toBe(1);
      await dialog.getByRole('button', { name: 'History' }).click();
      await expect
        .poll(() =>
          page
            .getByRole('dialog', { name: 'History' })
            .getByText(/Water pump/)
            .count(),
        )
        .toBeGreaterThan(0);
      await page.getByRole('dialog', { name: 'History' }).getByRole('button', { name: 'Back', exact: true }).click();
      await page.getByRole('dialog', { name: 'Edit Appointment' }).getByRole('button', { name: 'Open full entry' }).click();
      await expect.poll(() => page.getByRole('dialog').getByRole('button', { name: 'Save Changes' }).count()).toBe(1);
      await expect.poll(() => page.getByRole('dialog').getByLabel('VIN').count()).toBe(1);
    },
    TEST_TIMEOUT,
  );

  test(
    'views and navigation: Day / Week / Month, prev / next / Today, the labels; swipe on a phone',
    async () => {
      const shop = await calendarShop('calnav');
      const now = DateTime.now().setZone(ZONE).setLocale('en-US');
      const { page } = await signedInPage(browser, shop.owner);
      await openCalendar(page, shop, 'Month');
      const label = page.getByTestId('calendar-label');
      await expect.poll(() => label.textContent()).toBe(now.toFormat('LLLL yyyy'));
      await expect
        .poll(() => page.locator('.rbc-month-view .rbc-header').allTextContents())
        .toEqual(['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat']);
      await page.getByRole('button', { name: 'Next' }).click();
      await expect.poll(() => label.textContent()).toBe(now.plus({ months: 1 }).toFormat('LLLL yyyy'));
      await page.getByRole('button', { name: 'Today' }).click();
      await expect.poll(() => label.textContent()).toBe(now.toFormat('LLLL yyyy'));
      await page.getByRole('group', { name: 'View' }).getByRole('button', { name: 'Week' }).click();
      await expect.poll(() => page.locator('.rbc-time-view .rbc-header').count()).toBe(7);
      await expect.poll(() => page.locator('.rbc-time-gutter .rbc-label').first().textContent()).toBe('8 AM');
      await page.getByRole('group', { name: 'View' }).getByRole('button', { name: 'Day' }).click();
      await expect.poll(() => page.getByText(now.toFormat('cccc, LLLL d, yyyy')).count()).toBe(1);
      await page.getByRole('button', { name: 'Previous' }).click();
      await expect.poll(() => page.getByText(now.minus({ days: 1 }).toFormat('cccc, LLLL d, yyyy')).count()).toBe(1);

      const phone = await signedInPage(browser, shop.owner, { phone: true });
      await openCalendar(phone.page, shop);
      await expect.poll(() => phone.page.getByText(now.toFormat('cccc, LLLL d, yyyy')).count()).toBe(1);
      const swipe = async (dx: number, dy: number) =>
        await phone.page.locator('section[aria-label="Calendar"]').evaluate(
          (section, [dx, dy]) => {
            const point = (x: number, y: number) => new Touch({ identifier: 1, target: section, clientX: x, clientY: y });
            section.dispatchEvent(
              new TouchEvent('touchstart', { bubbles: true, touches: [point(200, 400)], changedTouches: [point(200, 400)] }),
            );
            section.dispatchEvent(
              new TouchEvent('touchend', { bubbles: true, touches: [], changedTouches: [point(200 + dx!, 400 + dy!)] }),
            );
          },
          [dx, dy],
        );
      await swipe(-80, 10); // left: the next day
      await expect.poll(() => phone.page.getByText(now.plus({ days: 1 }).toFormat('cccc, LLLL d, yyyy')).count()).toBe(1);
      await swipe(60, 40); // mostly down: no swipe
      await swipe(40, 0); // too short
      await expect.poll(() => phone.page.getByText(now.plus({ days: 1 }).toFormat('cccc, LLLL d, yyyy')).count()).toBe(1);
      await swipe(90, -20); // right: back
      await expect.poll(() => phone.page.getByText(now.toFormat('cccc, LLLL d, yyyy')).count()).toBe(1);

      // A real finger on a touch screen, arriving from another page of the app: swiping right
      // is the previous day, not the browser's "back" (which would leave the calendar).
      const touchContext = await browser.newContext({
        baseURL: server.url,
        viewport: { width: 390, height: 844 },
        isMobile: true,
        hasTouch: true,
      });
      onTestFinished(() => touchContext.close());
      await shareSession(touchContext, shop.owner);
      const finger = await touchContext.newPage();
      await finger.goto(`/crm/${shop.subdomain}/dashboard`);
      await expect.poll(() => finger.getByRole('link', { name: 'Calendar' }).count(), { timeout: SLOW }).toBeGreaterThan(0);
      await finger.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Calendar' }).click();
      await expect.poll(() => finger.getByText(now.toFormat('cccc, LLLL d, yyyy')).count(), { timeout: SLOW }).toBe(1);
      // The finger lands on the day's grid, in the middle of the part of it on the screen. Until
      // the day's appointments have loaded, the section holds only a spinner and a fixed point
      // such as y = 500 can fall below it, where no swipe is heard (as on a real phone).
      const grid = finger.locator('section[aria-label="Calendar"] .rbc-time-view');
      await expect.poll(() => grid.count(), { timeout: SLOW }).toBe(1);
      const cdp = await touchContext.newCDPSession(finger);
      // Left, right, right: the next day, today, the day before. Each swipe waits for the day
      // the previous one showed, so a loaded machine cannot run two gestures into one render.
      for (const [x1, x2, days] of [
        [300, 100, 1],
        [100, 300, 0],
        [100, 300, -1],
      ] as const) {
        const box = await grid.boundingBox();
        if (!box) throw new Error('the day grid is not on the page');
        const y = Math.round((Math.max(box.y, 0) + Math.min(box.y + box.height, 844)) / 2);
        await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: x1, y }] });
        for (let step = 1; step <= 8; step++) {
          await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x: x1 + ((x2 - x1) * step) / 8, y: y + 2 }] });
        }
        await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
        await expect.poll(() => finger.getByText(now.plus({ days }).toFormat('cccc, LLLL d, yyyy')).count(), { timeout: SLOW }).toBe(1);
      }
      expect(new URL(finger.url()).pathname).toBe(`/crm/${shop.subdomain}/calendar`);
    },
    TEST_TIMEOUT,
  );

  test(
    'technician lanes in the day view: every user who can do the work has a lane, so a job is dragged to a free tech; read-only users are not offered',
    async () => {
      const shop = await calendarShop('callane');
      await addUser(shop.owner, { username: 'tina', displayName: 'Tina Tech', pin: '2222' });
      await addUser(shop.owner, { username: 'mike', displayName: 'Mike Mechanic', pin: '3333' });
      await addUser(shop.owner, { username: 'fred', displayName: 'Fred Free', pin: '4444' });
      const rita = await addUser(shop.owner, { username: 'rita', displayName: 'Rita Reader', pin: '5555' });
      expect((await shop.owner.patch(`/api/admin/users/${rita}/permissions`, { canWrite: false })).status).toBe(200);
      const choices = async () =>
        ((await shop.owner.get(`/api/${shop.subdomain}/users/choices`)).body as Array<{ displayName: string }>).map((u) => u.displayName);
      await expect.poll(choices, { timeout: SLOW }).toEqual(['Fred Free', 'Mike Mechanic', 'Owner', 'Tina Tech']);
      const dana = await book(shop, { name: 'Dana Diesel', part: 'Brake pads', appointment: todayAt(9), tech: 'Tina Tech' });
      await book(shop, { name: 'Evan Exhaust', part: 'Muffler', appointment: todayAt(11), tech: 'Mike Mechanic' });
      const { page } = await signedInPage(browser, shop.owner);
      await openCalendar(page, shop, 'Day');
      await page.getByRole('button', { name: 'Technician lanes' }).click();
      const headers = page.locator('.rbc-time-header .rbc-row-resource .rbc-header');
      // Fred and the owner have no job today and still have lanes; Rita (read-only) has none.
      await expect
        .poll(() => headers.allTextContents(), { timeout: SLOW })
        .toEqual(['Unassigned', 'Fred Free', 'Mike Mechanic', 'Owner', 'Tina Tech']);
      await snap(page, 'calendar-day-lanes-all-techs');
      // Straight across to Fred's free lane: same height, same time.
      const from = await centre(eventBlock(page, 'Dana Diesel').locator('.rbc-event-content'));
      const lane = await slotPoint(page, 1, 9, 0);
      await dragTo(page, from, { x: lane.x, y: from.y });
      await expect.poll(async () => (await job(shop, dana.id)).tech, { timeout: SLOW }).toBe('Fred Free');
      expect((await job(shop, dana.id)).appointment).toBe(todayAt(9));
      // Tina has no job that day any more and keeps her lane: she can still take one.
      await expect.poll(() => headers.allTextContents()).toEqual(['Unassigned', 'Fred Free', 'Mike Mechanic', 'Owner', 'Tina Tech']);

      // The appointment dialog's Technician choices are the same people.
      await eventBlock(page, 'Dana Diesel').click();
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('combobox', { name: 'Technician' }).click();
      await expect
        .poll(() => page.getByRole('option').allTextContents(), { timeout: SLOW })
        .toEqual(['Unassigned', 'Fred Free', 'Mike Mechanic', 'Owner', 'Tina Tech']);
      await page.keyboard.press('Escape');
    },
    TEST_TIMEOUT,
  );

  test(
    "week view: three overlapping jobs at desktop width (1280 px, narrower than 1366) show the first readable and a '+2 more' that opens that day with all of them",
    async () => {
      const shop = await calendarShop('calcrowd');
      for (const name of ['Jonah Jetta', 'Wanda Wagon', 'Xena Xterra'])
        await book(shop, { name, part: 'Brakes', appointment: todayAt(13), duration: 60 });
      await book(shop, { name: 'Yuri Yaris', part: 'Oil', appointment: todayAt(9), duration: 60 });
      const { page } = await signedInPage(browser, shop.owner);
      await openCalendar(page, shop, 'Week');
      const more = eventBlock(page, '+2 more');
      await expect.poll(() => more.count(), { timeout: SLOW }).toBe(1);
      await expect.poll(() => eventBlock(page, 'Jonah Jetta').count(), { timeout: SLOW }).toBe(1);
      await expect.poll(() => eventBlock(page, 'Wanda Wagon').count(), { timeout: SLOW }).toBe(0);
      // Readable: the shown job's block is wide enough for its name (not "Jo…"), once laid out.
      await expect
        .poll(async () => (await eventBlock(page, 'Jonah Jetta').boundingBox())?.width ?? 0, { timeout: SLOW })
        .toBeGreaterThan(55);
      await snap(page, 'calendar-week-crowded-desktop');
      await more.click();
      await expect.poll(() => page.getByText(/· 4 appointments/).count(), { timeout: SLOW }).toBe(1);
      for (const name of ['Jonah Jetta', 'Wanda Wagon', 'Xena Xterra'])
        await expect.poll(() => eventBlock(page, name).count(), { timeout: SLOW }).toBe(1);
      await expect.poll(() => new URL(page.url()).searchParams.get('view'), { timeout: SLOW }).toBe('day');
    },
    TEST_TIMEOUT,
  );

  test(
    "a 30-minute appointment's title is whole in the week and day views, not cut by its time range",
    async () => {
      const shop = await calendarShop('calshort');
      await book(shop, { name: 'Faye Filter', part: 'Oil change', appointment: todayAt(14), duration: 30 });
      const { page } = await signedInPage(browser, shop.owner);
      /** Whether the block's words show whole: nothing clamped, nothing past the block's edges. */
      const titleWhole = () =>
        eventBlock(page, 'Faye Filter')
          .locator('.crm-event-words')
          .evaluate((words) => {
            const shown = words.getBoundingClientRect();
            const block = words.closest('.rbc-event')!.getBoundingClientRect();
            const whole = words.scrollHeight <= words.clientHeight + 1 && words.scrollWidth <= words.clientWidth + 1;
            return whole && shown.height > 0 && shown.bottom <= block.bottom + 0.5 && shown.right <= block.right + 0.5;
          });
      for (const view of ['Week', 'Day'] as const) {
        await openCalendar(page, shop, view);
        await expect.poll(() => eventBlock(page, 'Faye Filter').count(), { timeout: SLOW }).toBe(1);
        await expect.poll(() => eventBlock(page, 'Faye Filter').locator('.crm-event-words').innerText()).toBe('Faye Filter - Oil change');
        await expect.poll(titleWhole).toBe(true);
        await snapViewport(page, `calendar-short-appointment-${view.toLowerCase()}`);
      }
    },
    TEST_TIMEOUT,
  );

  test(
    "the shop's time zone whatever the browser's: a browser in Tokyo shows Chicago's hours and day",
    async () => {
      const shop = await calendarShop('calzone');
      await book(shop, { name: 'Ivy Ignition', part: 'Spark plugs', appointment: todayAt(9), duration: 30 });
      const context = await browser.newContext({
        baseURL: shop.owner.baseUrl,
        timezoneId: 'Asia/Tokyo',
        viewport: { width: 1280, height: 860 },
      });
      try {
        await shareSession(context, shop.owner);
        const page = await context.newPage();
        await expect.poll(() => page.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone)).toBe('Asia/Tokyo');
        await openCalendar(page, shop, 'Day');
        const chicagoToday = DateTime.now().setZone(ZONE).setLocale('en-US');
        await expect.poll(() => page.getByText(chicagoToday.toFormat('cccc, LLLL d, yyyy')).count()).toBe(1);
        await expect.poll(() => eventBlock(page, 'Ivy Ignition').getByText('9:00 AM – 9:30 AM').count()).toBe(1);
        // The block sits in the 9 AM row of the shop's day.
        const nine = (await page.locator('.rbc-time-gutter .rbc-timeslot-group', { hasText: '9 AM' }).boundingBox())!;
        const block = (await eventBlock(page, 'Ivy Ignition').boundingBox())!;
        expect(Math.abs(block.y - nine.y)).toBeLessThan(4);
        await clickSlot(page, 0, 15, 30);
        await expect
          .poll(() => page.getByRole('dialog', { name: 'Create New Appointment' }).getByLabel('Appointment Date & Time').inputValue())
          .toBe(localInput(todayAt(15, 30)));
        await snapViewport(page, 'calendar-day-tokyo-browser');
      } finally {
        await context.close();
      }
    },
    TEST_TIMEOUT,
  );

  test(
    'on a touch phone: the day view first, and a tap on an appointment opens Edit Appointment',
    async () => {
      const shop = await calendarShop('caltap');
      await book(shop, { name: 'Jo Jumpstart', part: 'Battery', appointment: todayAt(10) });
      const context = await browser.newContext({
        baseURL: shop.owner.baseUrl,
        viewport: { width: 390, height: 844 },
        hasTouch: true,
        isMobile: true,
      });
      try {
        await shareSession(context, shop.owner);
        const page = await context.newPage();
        await openCalendar(page, shop);
        await expect.poll(() => page.getByRole('button', { name: 'Day', pressed: true }).count()).toBe(1);
        const block = eventBlock(page, 'Jo Jumpstart - Battery');
        await block.scrollIntoViewIfNeeded();
        await block.tap();
        await expect.poll(() => page.getByRole('dialog', { name: 'Edit Appointment' }).count(), { timeout: SLOW }).toBe(1);
      } finally {
        await context.close();
      }
    },
    TEST_TIMEOUT,
  );
});
