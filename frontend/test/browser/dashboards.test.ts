import type { Browser, Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { signInSuperAdmin, signInUser, type TestServer } from '../../../backend/test/support/server.ts';
import { greetingFor } from '../../src/features/instance-shell/utils/greeting.ts';
import {
  addMavenUser,
  addUser,
  createShop,
  postAll,
  serverAndBrowserForFile,
  signedInPage,
  SLOW,
  snap,
  snapViewport,
  TEST_TIMEOUT,
  unique,
} from './support.ts';

let server: TestServer;
let browser: Browser;
serverAndBrowserForFile((s, b) => ([server, browser] = [s, b]));

const eventually = <T>(fn: () => Promise<T> | T) => expect.poll(fn, { timeout: SLOW });

/** A zone whose greeting now differs from the browser's (so the test tells the shop's clock from the browser's). */
function zoneWithOtherGreeting(now = new Date()): string {
  const browserGreeting = greetingFor(now);
  const zones = [
    'Pacific/Kiritimati',
    'Asia/Tokyo',
    'Asia/Kolkata',
    'Europe/Berlin',
    'America/New_York',
    'America/Los_Angeles',
    'Pacific/Honolulu',
  ];
  return zones.find((zone) => greetingFor(now, zone) !== browserGreeting) ?? 'UTC';
}

async function setInstance(instanceId: string, changes: Record<string, unknown>) {
  const superAdmin = await signInSuperAdmin(server);
  const res = await superAdmin.put(`/api/crm-instances/${instanceId}`, changes);
  if (res.status !== 200) throw new Error(`instance update failed: ${res.status} ${res.text}`);
}

const card = (page: Page, title: string) => page.locator('[aria-labelledby]').filter({ has: page.getByRole('heading', { name: title }) });

describe('instance dashboard', () => {
  test(
    "greets by the shop's clock, counts from the server, hides switched-off quick actions and badges them Coming Soon",
    async () => {
      const shop = await createShop(server, 'dash');
      const zone = zoneWithOtherGreeting();
      await setInstance(shop.instance.id, { timeZone: zone, features: { calendar: true, serviceRequests: false } });
      const stats = (await shop.owner.get('/api/dashboard')).body;
      const start = new Date(stats.weekStart).getTime();
      // Two jobs booked this week (Tuesday 9:00 and 10:00 in the shop's week), one last week, one paid.
      await postAll(shop.owner, '/api/user-info', [
        {
          name: 'Ada Lovelace',
          phone: '5550101',
          part: 'Brake pads',
          quote: '240',
          appointment: new Date(start + 33 * 3600_000).toISOString(),
        },
        {
          name: 'Grace Hopper',
          phone: '5550102',
          part: 'Alternator',
          quote: '410',
          appointment: new Date(start + 34 * 3600_000).toISOString(),
        },
        { name: 'Alan Turing', phone: '5550103', part: 'Tyres', appointment: new Date(start - 24 * 3600_000).toISOString() },
        { name: 'Edsger Dijkstra', phone: '5550104', part: 'Oil change', stage: 'Paid' },
      ]);
      await addUser(shop.owner, { username: unique('staff'), pin: '2468' });

      const { page } = await signedInPage(browser, shop.owner);
      // The subdomain family serves the same dashboard.
      await page.goto(`/${shop.subdomain}`);
      await page.waitForURL(`**/crm/${shop.subdomain}/dashboard`);
      const greeting = greetingFor(new Date(), zone);
      await eventually(() => page.getByRole('heading', { level: 1 }).innerText()).toBe(`${greeting}, Owner`);
      await eventually(() => page.getByTestId('count-customers').innerText()).toBe('4 customers');
      await eventually(() => page.getByTestId('count-pipeline').innerText()).toBe('3 open jobs');
      await eventually(() => page.getByTestId('count-calendar').innerText()).toBe('2 appointments this week');
      await eventually(() => page.getByTestId('count-admin').innerText()).toBe('2 users');
      // Service requests are off: their card is badged, their quick action is gone.
      await expect.poll(() => card(page, 'Service Requests').getByText('Coming Soon').count()).toBe(1);
      const actions = page.getByRole('list', { name: 'Quick Actions' });
      await expect
        .poll(() => actions.getByRole('link').allInnerTexts())
        .toEqual(['Add New Customer', 'Create Pipeline Entry', 'Schedule Appointment']);
      // Recent Activity is the instance's timeline: the super admin's change of its settings is in it.
      await eventually(() => page.getByText(/Changed the settings of the CRM instance/).count()).toBeGreaterThan(0);
      await snap(page, 'dashboard-instance-desktop-light');

      for (const [name, options] of [
        ['dashboard-instance-desktop-dark', { colorScheme: 'dark' as const }],
        ['dashboard-instance-phone-light', { phone: true }],
        ['dashboard-instance-phone-dark', { phone: true, colorScheme: 'dark' as const }],
      ] as const) {
        const { page: other } = await signedInPage(browser, shop.owner, options);
        await other.goto(`/crm/${shop.subdomain}/dashboard`);
        await eventually(() => other.getByTestId('count-pipeline').innerText()).toBe('3 open jobs');
        await snap(other, name);
      }
    },
    TEST_TIMEOUT * 2,
  );

  test(
    'a staff member sees no user count and no admin card; a switched-off feature says it is not enabled and has no link',
    async () => {
      const shop = await createShop(server, 'dashstaff');
      const username = unique('staff');
      await addUser(shop.owner, { username, pin: '1357' });
      await setInstance(shop.instance.id, { features: { calendar: false } });
      const staff = await signInUser(server, shop.subdomain, username, '1357');
      const { page } = await signedInPage(browser, staff);
      await page.goto(`/crm/${shop.subdomain}/dashboard`);
      await eventually(() => page.getByTestId('count-pipeline').innerText()).toBe('0 open jobs');
      await expect.poll(() => page.getByRole('heading', { name: 'Administration' }).count()).toBe(0);
      await expect.poll(() => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Calendar' }).count()).toBe(0);
      await page.goto(`/crm/${shop.subdomain}/calendar`);
      await eventually(() => page.getByText('Calendar is not enabled for this CRM.', { exact: false }).count()).toBe(1);
      await expect.poll(() => page.getByText(/coming soon/i).count()).toBe(0);
      await snap(page, 'feature-not-enabled-desktop-light');
      const { page: phone } = await signedInPage(browser, staff, { phone: true, colorScheme: 'dark' });
      await phone.goto(`/crm/${shop.subdomain}/calendar`);
      await eventually(() => phone.getByText('Calendar is not enabled for this CRM.', { exact: false }).count()).toBe(1);
      await snap(phone, 'feature-not-enabled-phone-dark');
    },
    TEST_TIMEOUT,
  );
});

describe('the navigation on a phone', () => {
  test(
    'every entry is whole and on screen on a phone, whichever page is current (Admin, Takings), light and dark',
    async () => {
      const shop = await createShop(server, 'navrow');
      // A new online request: the Service Requests entry gets its badge after the row is drawn, wider then.
      expect((await shop.owner.put('/api/admin/public-requests', { enabled: true })).status).toBe(200);
      const anonymous = new (shop.owner.constructor as typeof import('../../../backend/test/support/server.ts').ApiClient)(server.url);
      const online = await anonymous.post(`/api/public/${shop.subdomain}/service-requests`, {
        customerName: 'Online Customer',
        contactEmail: 'online@example.com',
        serviceType: 'Brake Service',
      });
      expect(online.status).toBe(201);
      for (const colorScheme of ['light', 'dark'] as const) {
        const { page } = await signedInPage(browser, shop.owner, { phone: true, colorScheme });
        const nav = page.getByRole('navigation', { name: 'Main' });
        /**
         * The entries not wholly on screen, by label (a row that scrolled sideways cut one at
         * each edge and hid the rest), and whether anything scrolls sideways.
         */
        const cut = () =>
          nav.evaluate((el) => {
            const width = document.documentElement.clientWidth;
            const entries = [...el.querySelectorAll('li')].filter((li) => {
              const box = li.getBoundingClientRect();
              return box.left < 0 || box.right > width;
            });
            const list = el.querySelector('ul')!;
            return {
              cut: entries.map((li) => li.textContent),
              scrolls: list.scrollWidth > list.clientWidth || document.documentElement.scrollWidth > width,
            };
          });
        for (const [path, label] of [
          ['admin', 'Admin'],
          ['reports/takings', 'Takings'],
          ['pipeline', 'Pipeline'],
          ['admin/audit', 'Admin'],
        ] as const) {
          await page.goto(`/crm/${shop.subdomain}/${path}`);
          // Audit is a page of Admin's: the Admin entry is marked as the section, a link.
          const current = path === 'admin/audit' ? nav.getByRole('link', { name: label }) : nav.locator('[aria-current="page"]');
          await eventually(() => current.innerText()).toContain(label);
          await expect.poll(() => nav.getByText(/Service Requests/).innerText()).toContain('1');
          await expect.poll(cut).toEqual({ cut: [], scrolls: false });
        }
        await snapViewport(page, `nav-phone-every-entry-${colorScheme}`);
      }
    },
    TEST_TIMEOUT,
  );
});

describe('a change of features reaches open screens', () => {
  test(
    "the super admin switches the calendar on and off: a staff member's open home follows without a reload",
    async () => {
      const shop = await createShop(server, 'dashlive');
      const { page } = await signedInPage(browser, shop.owner);
      await page.goto(`/crm/${shop.subdomain}/dashboard`);
      const nav = page.getByRole('navigation', { name: 'Main' });
      await eventually(() => page.getByTestId('count-pipeline').innerText()).toBe('0 open jobs');
      await expect.poll(() => nav.getByRole('link', { name: 'Calendar' }).count()).toBe(0);
      await setInstance(shop.instance.id, { features: { calendar: true } });
      await eventually(() => nav.getByRole('link', { name: 'Calendar' }).count()).toBe(1);
      await eventually(() => page.getByTestId('count-calendar').innerText()).toBe('0 appointments this week');
      await setInstance(shop.instance.id, { features: { calendar: false } });
      await eventually(() => nav.getByRole('link', { name: 'Calendar' }).count()).toBe(0);
      await eventually(() => card(page, 'Calendar & Scheduling').getByText('Coming Soon').count()).toBe(1);
    },
    TEST_TIMEOUT,
  );
});

describe('service requests on the home', () => {
  test(
    'the Service Requests card counts open requests and badges the new ones from the public page',
    async () => {
      const shop = await createShop(server, 'dashreq');
      expect((await shop.owner.put('/api/admin/public-requests', { enabled: true })).status).toBe(200);
      expect(
        (await shop.owner.post(`/api/${shop.subdomain}/service-requests`, { customerName: 'Counter Walk-in', serviceType: 'Oil Change' }))
          .status,
      ).toBe(201);
      const anonymous = new (shop.owner.constructor as typeof import('../../../backend/test/support/server.ts').ApiClient)(server.url);
      const online = await anonymous.post(`/api/public/${shop.subdomain}/service-requests`, {
        customerName: 'Online Customer',
        contactEmail: 'online@example.com',
        serviceType: 'Brake Service',
      });
      expect(online.status).toBe(201);
      const { page } = await signedInPage(browser, shop.owner);
      await page.goto(`/crm/${shop.subdomain}/dashboard`);
      await eventually(() => page.getByTestId('count-serviceRequests').innerText()).toBe('2 open requests');
      await eventually(() => card(page, 'Service Requests').getByText('1 new online').count()).toBe(1);
      const actions = page.getByRole('list', { name: 'Quick Actions' });
      await expect.poll(() => actions.getByRole('link').allInnerTexts()).toContain('New Service Request');
      await card(page, 'Service Requests').getByRole('link', { name: 'View Requests' }).click();
      await page.waitForURL(`**/crm/${shop.subdomain}/service-list`);
    },
    TEST_TIMEOUT,
  );
});

describe('maven home', () => {
  test(
    'the tiles and real Quick Stats: jobs by stage, quotes this week, invoiced this month',
    async () => {
      const username = unique('mav');
      await addMavenUser(server, { username, pin: '8642' });
      const maven = await signInUser(server, 'maven', username, '8642');
      const before = (await maven.get('/api/dashboard?quickStats=true')).body;
      const invoicedBefore = Number(before.revenueThisMonth ?? 0);
      const quotesBefore = Number(before.quotesThisWeek?.count ?? 0);
      const created = await postAll(maven, '/api/user-info', [
        { name: 'Quick One', phone: '5550201', part: 'Hose', quote: '100' },
        { name: 'Quick Two', phone: '5550202', part: 'Belt', quote: '300' },
      ]);
      const res = await maven.patch(`/api/user-info/${created[1].id}/stage`, { stage: 'Invoiced' });
      expect(res.status).toBe(200);

      for (const [name, options] of [
        ['dashboard-maven-desktop-light', {}],
        ['dashboard-maven-desktop-dark', { colorScheme: 'dark' as const }],
        ['dashboard-maven-phone-light', { phone: true }],
        ['dashboard-maven-phone-dark', { phone: true, colorScheme: 'dark' as const }],
      ] as const) {
        const { page } = await signedInPage(browser, maven, options);
        await page.goto('/maven/home');
        await eventually(() => page.getByRole('heading', { name: 'Quick Stats' }).count()).toBe(1);
        await eventually(() => page.getByTestId('stat-quotes').innerText()).toBe(String(quotesBefore + 2));
        const dollars = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 }).format(
          invoicedBefore + 300,
        );
        await eventually(() => page.getByTestId('stat-revenue').innerText()).toBe(dollars);
        await expect.poll(() => page.getByRole('list', { name: 'Jobs by stage' }).getByRole('listitem').count()).toBe(9);
        await expect.poll(() => page.getByRole('link', { name: 'Pipeline', exact: true }).count()).toBeGreaterThan(0);
        await snap(page, name);
      }
    },
    TEST_TIMEOUT * 2,
  );
});

describe('provider dashboard and instance editing', () => {
  test(
    "the CRM card shows each instance's users, jobs and last activity; no placeholder products",
    async () => {
      const shop = await createShop(server, 'prov');
      await postAll(shop.owner, '/api/user-info', [{ name: 'Figure Job', phone: '5550301', part: 'Clutch' }]);
      const superAdmin = await signInSuperAdmin(server);
      for (const [name, options] of [
        ['dashboard-provider-desktop-light', {}],
        ['dashboard-provider-desktop-dark', { colorScheme: 'dark' as const }],
        ['dashboard-provider-phone-light', { phone: true }],
        ['dashboard-provider-phone-dark', { phone: true, colorScheme: 'dark' as const }],
      ] as const) {
        const { page } = await signedInPage(browser, superAdmin, options);
        await page.goto('/');
        const row = page.getByRole('row', { name: new RegExp(`${shop.subdomain} Auto`) });
        await eventually(() => row.getByRole('cell').allInnerTexts()).toEqual(['1', '1', expect.stringMatching(/ago|just now/)]);
        await eventually(() => row.getByRole('rowheader').innerText()).toContain(`/${shop.subdomain}`);
        await expect.poll(() => page.getByText('Coming Soon').count()).toBe(0);
        await snap(page, name);
      }
    },
    TEST_TIMEOUT * 2,
  );

  test(
    'Edit on an instance card changes its settings and shows them in its history',
    async () => {
      const shop = await createShop(server, 'edit');
      const superAdmin = await signInSuperAdmin(server);
      const { page } = await signedInPage(browser, superAdmin);
      await page.goto('/crm-selection');
      await eventually(() => page.getByRole('button', { name: `Edit ${shop.subdomain} Auto` }).count()).toBe(1);
      await snap(page, 'crm-selection-desktop-light');
      await page.getByRole('button', { name: `Edit ${shop.subdomain} Auto` }).click();
      const dialog = page.getByRole('dialog');
      await eventually(() => dialog.getByLabel('Display Name').inputValue()).toBe(`${shop.subdomain} Auto`);
      await dialog.getByLabel('Display Name').fill(`${shop.subdomain} Motors`);
      await dialog.getByLabel('Time Zone').selectOption('America/Denver');
      await dialog.getByLabel('Calendar').check();
      await dialog.getByLabel('Public request page').check();
      await snapViewport(page, 'edit-instance-dialog-desktop-light');
      await dialog.getByRole('button', { name: 'Save Changes' }).click();
      await eventually(() => page.getByRole('dialog').count()).toBe(0);
      await eventually(() => page.getByRole('link', { name: `${shop.subdomain} Motors` }).count()).toBeGreaterThan(0);

      await page.getByRole('button', { name: `Edit ${shop.subdomain} Motors` }).click();
      await page.getByRole('dialog').getByRole('tab', { name: 'history' }).click();
      const history = page.getByRole('list', { name: 'Changes, newest first' });
      await eventually(() => history.getByRole('listitem').first().innerText()).toMatch(/Updated/i);
      await expect.poll(() => history.getByText(/Time zone:.*America\/Denver/).count()).toBe(1);
      await expect.poll(() => history.getByText('Public request page: No → Yes').count()).toBe(1);
      await snapViewport(page, 'edit-instance-history-desktop-light');

      // The shop's staff see it on their next request.
      const me = (await shop.owner.get('/api/user/current')).body;
      expect(me.instance).toMatchObject({ displayName: `${shop.subdomain} Motors`, timeZone: 'America/Denver' });

      for (const [name, options] of [
        ['edit-instance-dialog-phone-dark', { phone: true, colorScheme: 'dark' as const }],
        ['edit-instance-dialog-desktop-dark', { colorScheme: 'dark' as const }],
      ] as const) {
        const { page: other } = await signedInPage(browser, superAdmin, options);
        await other.goto('/crm-selection');
        await eventually(() => other.getByRole('button', { name: `Edit ${shop.subdomain} Motors` }).count()).toBe(1);
        await snap(other, name.replace('edit-instance-dialog', 'crm-selection'));
        await other.getByRole('button', { name: `Edit ${shop.subdomain} Motors` }).click();
        await eventually(() => other.getByRole('dialog').getByLabel('Time Zone').inputValue()).toBe('America/Denver');
        // The picture after the dialog's fade-in, not halfway through it.
        await other.waitForTimeout(500);
        await snapViewport(other, name);
      }
    },
    TEST_TIMEOUT * 2,
  );

  test(
    "the shop's admin switches its public request page on from the Admin Dashboard",
    async () => {
      const shop = await createShop(server, 'pub');
      const { page } = await signedInPage(browser, shop.owner);
      await page.goto(`/crm/${shop.subdomain}/admin`);
      const box = page.getByLabel('Public request page');
      await eventually(() => box.isChecked()).toBe(false);
      // The box shows what the server holds: it turns on once the server has answered, which on
      // a busy machine is after Playwright's check() has given up waiting for the change. Click
      // while it is still off (turning on twice is the same as once) until the server has it on.
      await expect
        .poll(
          async () => {
            if (!(await box.isChecked())) await box.click();
            return (await shop.owner.get('/api/admin/public-requests')).body.enabled;
          },
          { timeout: 30_000, interval: 1_000 },
        )
        .toBe(true);
      await eventually(() => box.isChecked()).toBe(true);
      await eventually(() => page.getByRole('link', { name: `/${shop.subdomain}/request` }).count()).toBe(1);
      await expect.poll(async () => (await shop.owner.get('/api/admin/public-requests')).body.enabled).toBe(true);
      await snap(page, 'admin-public-requests-desktop-light');
      for (const [name, options] of [
        ['admin-public-requests-phone-dark', { phone: true, colorScheme: 'dark' as const }],
        ['admin-public-requests-desktop-dark', { colorScheme: 'dark' as const }],
      ] as const) {
        const { page: other } = await signedInPage(browser, shop.owner, options);
        await other.goto(`/crm/${shop.subdomain}/admin`);
        await eventually(() => other.getByLabel('Public request page').isChecked()).toBe(true);
        await snap(other, name);
      }
    },
    TEST_TIMEOUT,
  );
});
