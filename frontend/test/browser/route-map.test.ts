import type { Browser, Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { type ApiClient, signInSuperAdmin, signInUser, type TestServer } from '../../../backend/test/support/server.ts';
import {
  addMavenUser,
  addUser,
  createShop,
  newPage,
  serverAndBrowserForFile,
  signedInPage,
  SLOW,
  TEST_TIMEOUT,
  unique,
} from './support.ts';

/**
 * The route map, table-driven: every route of every family (the provider's pages, the
 * redirects, /crm/{instance}/…, /{subdomain}/…, /maven/…, /profile, /settings, /register,
 * an unknown instance) visited by each kind of visitor: nobody, a staff member and an admin
 * of a shop, the super admin (and, for /maven/…, a user of the provider's own CRM). Each row
 * says where the visitor ends up and the page heading (h1) shown there; with the shop's
 * features off, its screens say they are not enabled.
 */

let server: TestServer;
let browser: Browser;
serverAndBrowserForFile((s, b) => ([server, browser] = [s, b]));

type Visitor = 'none' | 'staff' | 'admin' | 'super';
/** Where the visitor lands (path, with S for the shop's subdomain and C for a customer id) and the h1 there. */
type Outcome = [path: string, heading: string | RegExp];
type Row = [route: string, outcomes: Partial<Record<Visitor, Outcome>> & { rest?: Outcome }];

const GREETING = (name: string) => new RegExp(`^Good (morning|afternoon|evening), ${name}$`);
const LOGIN: Outcome = ['/super-admin-login', 'Super Admin Login'];
const PROVIDER: Outcome = ['/', 'Welcome, Super Admin'];
const SHOP_LOGIN: Outcome = ['/crm/S', 'S CRM Login'];
const MAVEN_LOGIN: Outcome = ['/maven', 'MAVEN CRM Login'];
const STAFF_HOME: Outcome = ['/crm/S/dashboard', GREETING('Stacy Staff')];
const ADMIN_HOME: Outcome = ['/crm/S/dashboard', GREETING('Owner')];
/** A page of the shop: staff and admin see it; nobody and the super admin get the shop's login. */
const shopPage = (path: string, heading: string, adminOnly = false): Row[1] => ({
  none: SHOP_LOGIN,
  super: SHOP_LOGIN,
  staff: adminOnly ? STAFF_HOME : [path, heading],
  admin: [path, heading],
});

/** Every feature on (a shop with Calendar switched on too). */
const ROUTES_ON: Row[] = [
  ['/super-admin-login', { super: PROVIDER, rest: LOGIN }],
  ['/', { super: PROVIDER, rest: LOGIN }],
  ['/crm-selection', { super: ['/crm-selection', 'Select a CRM'], rest: LOGIN }],
  ['/crm-builder', { super: ['/crm-builder', 'Create CRM'], rest: LOGIN }],
  // /crm leads to / (a signed-in staff member to their dashboard); /login leads to /crm.
  ['/crm', { none: LOGIN, super: PROVIDER, staff: STAFF_HOME, admin: ADMIN_HOME }],
  ['/login', { none: LOGIN, super: PROVIDER, staff: STAFF_HOME, admin: ADMIN_HOME }],
  // /pipeline, /calendar, /admin lead to /crm/… and on to the signed-in user's instance.
  ['/pipeline', { none: LOGIN, super: PROVIDER, staff: ['/crm/S/pipeline', 'Pipeline'], admin: ['/crm/S/pipeline', 'Pipeline'] }],
  ['/calendar', { none: LOGIN, super: PROVIDER, staff: ['/crm/S/calendar', 'Calendar'], admin: ['/crm/S/calendar', 'Calendar'] }],
  ['/admin', { none: LOGIN, super: PROVIDER, staff: STAFF_HOME, admin: ['/crm/S/admin', 'Admin Dashboard'] }],
  ['/crm/S', { none: SHOP_LOGIN, super: SHOP_LOGIN, staff: STAFF_HOME, admin: ADMIN_HOME }],
  ['/crm/S/dashboard', { none: SHOP_LOGIN, super: SHOP_LOGIN, staff: STAFF_HOME, admin: ADMIN_HOME }],
  ['/crm/S/pipeline', shopPage('/crm/S/pipeline', 'Pipeline')],
  ['/crm/S/calendar', shopPage('/crm/S/calendar', 'Calendar')],
  ['/crm/S/admin', shopPage('/crm/S/admin', 'Admin Dashboard', true)],
  ['/crm/S/admin/audit', shopPage('/crm/S/admin/audit', 'Audit Log', true)],
  ['/crm/S/customers', shopPage('/crm/S/customers', 'Customers')],
  ['/crm/S/customers/new', shopPage('/crm/S/customers/new', 'Add New Customer')],
  ['/crm/S/customers/C/edit', shopPage('/crm/S/customers/C/edit', 'Edit Customer')],
  ['/crm/S/service-form', shopPage('/crm/S/service-form', 'Service Request Form')],
  ['/crm/S/service-list', shopPage('/crm/S/service-list', 'Service Requests')],
  // The subdomain family: its login here, the screens the canonical ones. A sign-in from here leads to the pipeline.
  [
    '/S/login',
    {
      none: ['/S/login', 'S CRM Login'],
      super: ['/S/login', 'S CRM Login'],
      staff: ['/crm/S/pipeline', 'Pipeline'],
      admin: ['/crm/S/pipeline', 'Pipeline'],
    },
  ],
  ['/S', { none: SHOP_LOGIN, super: SHOP_LOGIN, staff: STAFF_HOME, admin: ADMIN_HOME }],
  ['/S/customers', shopPage('/crm/S/customers', 'Customers')],
  ['/S/pipeline', shopPage('/crm/S/pipeline', 'Pipeline')],
  ['/S/calendar', shopPage('/crm/S/calendar', 'Calendar')],
  ['/S/admin', shopPage('/crm/S/admin', 'Admin Dashboard', true)],
  // The provider's own instance: its login for anyone who is not signed in to it.
  ['/maven', { rest: MAVEN_LOGIN }],
  ['/maven/home', { rest: MAVEN_LOGIN }],
  ['/maven/pipeline', { rest: MAVEN_LOGIN }],
  ['/maven/customers', { rest: MAVEN_LOGIN }],
  ['/maven/calendar', { rest: MAVEN_LOGIN }],
  ['/maven/admin', { rest: MAVEN_LOGIN }],
  ['/maven/service-list', { rest: MAVEN_LOGIN }],
  ['/maven/insights', { rest: MAVEN_LOGIN }],
  // Account pages: any instance's session; without one, /crm and on to /.
  ['/profile', { none: LOGIN, super: PROVIDER, staff: ['/profile', 'Your Profile'], admin: ['/profile', 'Your Profile'] }],
  ['/settings', { none: LOGIN, super: PROVIDER, staff: ['/settings', 'Settings'], admin: ['/settings', 'Settings'] }],
  ['/register', { rest: ['/register', 'Need an account?'] }],
  // An unknown instance, in each family: a clear page, not a blank screen.
  ['/nosuchshop', { rest: ['/crm/nosuchshop', 'No such CRM'] }],
  ['/nosuchshop/login', { rest: ['/nosuchshop/login', 'No such CRM'] }],
  ['/crm/nosuchshop', { rest: ['/crm/nosuchshop', 'No such CRM'] }],
  ['/crm/nosuchshop/dashboard', { rest: ['/crm/nosuchshop', 'No such CRM'] }],
];

/** A shop with every feature off: each feature's screens say so (the visitor stays on the page); user management stays. */
const OFF = (title: string, path: string): Row[1] => ({ staff: [path, title], admin: [path, title] });
const ROUTES_OFF: Row[] = [
  ['/crm/S/dashboard', { staff: STAFF_HOME, admin: ADMIN_HOME }],
  ['/crm/S/pipeline', OFF('Pipeline', '/crm/S/pipeline')],
  ['/pipeline', OFF('Pipeline', '/crm/S/pipeline')],
  ['/S/pipeline', OFF('Pipeline', '/crm/S/pipeline')],
  ['/crm/S/customers', OFF('Customers', '/crm/S/customers')],
  ['/crm/S/customers/new', OFF('Customers', '/crm/S/customers/new')],
  ['/S/customers', OFF('Customers', '/crm/S/customers')],
  ['/crm/S/calendar', OFF('Calendar', '/crm/S/calendar')],
  ['/crm/S/service-form', OFF('Service Requests', '/crm/S/service-form')],
  ['/crm/S/service-list', OFF('Service Requests', '/crm/S/service-list')],
  ['/crm/S/admin', { staff: STAFF_HOME, admin: ['/crm/S/admin', 'Users'] }],
  ['/crm/S/admin/audit', { staff: STAFF_HOME, admin: ['/crm/S/admin/audit', 'Administration'] }],
];
const NOT_ENABLED = /is not enabled for this CRM/;

/** The provider's own CRM, for one of its users. */
const MAVEN_ROUTES: Array<[string, Outcome]> = [
  ['/maven', ['/maven/home', /^Good (morning|afternoon|evening), /]],
  ['/maven/home', ['/maven/home', /^Good (morning|afternoon|evening), /]],
  ['/maven/pipeline', ['/maven/pipeline', 'Pipeline']],
  ['/maven/customers', ['/maven/customers', 'Customers']],
  ['/maven/calendar', ['/maven/calendar', 'Calendar']],
  ['/maven/admin', ['/maven/admin', 'Admin Dashboard']],
  ['/maven/service-list', ['/maven/service-list', 'Service Requests']],
  ['/maven/insights', ['/maven/insights', 'Insights']],
  ['/crm', ['/maven/home', /^Good (morning|afternoon|evening), /]],
];

function expand(text: string, shop: { subdomain: string; customerId: string }): string {
  return text.replaceAll('/S', `/${shop.subdomain}`).replace(/\bC\b/, shop.customerId);
}

/** Visits a route and waits until the page has settled where the row says, with its heading. */
async function visit(page: Page, route: string, [path, heading]: Outcome, shop: { subdomain: string; customerId: string; name: string }) {
  await page.goto(expand(route, shop));
  const wantedPath = expand(path, shop);
  await expect.poll(() => new URL(page.url()).pathname, { timeout: SLOW, message: `${route} → path` }).toBe(wantedPath);
  const wantedHeading = typeof heading === 'string' ? heading.replace(/^S CRM/, `${shop.name.toUpperCase()} CRM`) : heading;
  const h1 = page.getByRole('heading', { level: 1 });
  if (typeof wantedHeading === 'string') {
    await expect.poll(() => h1.allInnerTexts(), { timeout: SLOW, message: `${route} → heading` }).toEqual([wantedHeading]);
  } else {
    await expect
      .poll(async () => (await h1.allInnerTexts()).join(' / '), { timeout: SLOW, message: `${route} → heading` })
      .toMatch(wantedHeading);
  }
}

interface Visitors {
  shop: { subdomain: string; customerId: string; name: string; instanceId: string };
  clients: Record<Visitor, ApiClient | null>;
}

async function setUpShop(prefix: string): Promise<Visitors> {
  const made = await createShop(server, prefix);
  const staffName = unique('staff');
  await addUser(made.owner, { username: staffName, displayName: 'Stacy Staff', pin: '2468' });
  const customer = await made.owner.post('/api/customers', { name: 'Route Map Customer' });
  if (customer.status !== 201) throw new Error(`customer: ${customer.status} ${customer.text}`);
  const superAdmin = await signInSuperAdmin(server);
  // Calendar starts off for a new shop: on, so every screen of the map exists.
  await superAdmin.put(`/api/crm-instances/${made.instance.id}`, { features: { calendar: true } });
  return {
    shop: { subdomain: made.subdomain, customerId: customer.body.id, name: made.subdomain, instanceId: made.instance.id },
    clients: { none: null, staff: await signInUser(server, made.subdomain, staffName, '2468'), admin: made.owner, super: superAdmin },
  };
}

async function pageFor(client: ApiClient | null): Promise<Page> {
  return client ? (await signedInPage(browser, client)).page : (await newPage(browser, { baseURL: server.url })).page;
}

describe('route map', () => {
  const VISITORS: Visitor[] = ['none', 'staff', 'admin', 'super'];

  for (const visitor of VISITORS) {
    test(
      `every route as ${visitor === 'none' ? 'a visitor who is not signed in' : `the ${visitor === 'super' ? 'super admin' : visitor}`}, features on`,
      async () => {
        const { shop, clients } = await setUpShop('map');
        const page = await pageFor(clients[visitor]);
        for (const [route, outcomes] of ROUTES_ON) {
          const outcome = outcomes[visitor] ?? outcomes.rest;
          if (!outcome) throw new Error(`no outcome for ${visitor} at ${route}`);
          await visit(page, route, outcome, shop);
        }
      },
      TEST_TIMEOUT * 4,
    );
  }

  for (const visitor of ['staff', 'admin'] as const) {
    test(
      `with every feature off, the ${visitor} sees each feature's screens say it is not enabled, and no links to them`,
      async () => {
        const { shop, clients } = await setUpShop('mapoff');
        const superAdmin = clients.super!;
        const off = { pipeline: false, customers: false, calendar: false, admin: false, serviceRequests: false };
        expect((await superAdmin.put(`/api/crm-instances/${shop.instanceId}`, { features: off })).status).toBe(200);
        const page = await pageFor(clients[visitor]);
        for (const [route, outcomes] of ROUTES_OFF) {
          const outcome = outcomes[visitor]!;
          await visit(page, route, outcome, shop);
          const [path, heading] = outcome;
          const featureScreen =
            typeof heading === 'string' && !['Users'].includes(heading) && path !== STAFF_HOME[0] && path !== ADMIN_HOME[0];
          if (featureScreen) await expect.poll(() => page.getByText(NOT_ENABLED).count(), { message: `${route} says not enabled` }).toBe(1);
        }
        // The home: no navigation link to a feature that is off (Home stays, and user management for the admin).
        await page.goto(`/crm/${shop.subdomain}/dashboard`);
        const nav = page.getByRole('navigation', { name: 'Main' });
        await expect.poll(() => nav.locator('[aria-current="page"]').allInnerTexts(), { timeout: SLOW }).toEqual(['Home']);
        const links = await nav.getByRole('link').allInnerTexts();
        for (const feature of ['Pipeline', 'Customers', 'Calendar', 'Service Requests', 'Admin']) expect(links).not.toContain(feature);
        if (visitor === 'admin') expect(links).toContain('Users');
        await expect.poll(() => page.getByText('Coming Soon').count()).toBeGreaterThanOrEqual(4);
        await expect.poll(() => page.getByText('No quick actions while every feature is off.').count()).toBe(1);

        // On again: the screens are back.
        expect(
          (
            await superAdmin.put(`/api/crm-instances/${shop.instanceId}`, {
              features: { pipeline: true, customers: true, serviceRequests: true },
            })
          ).status,
        ).toBe(200);
        await visit(page, '/crm/S/pipeline', ['/crm/S/pipeline', 'Pipeline'], shop);
        await expect.poll(() => page.getByText(NOT_ENABLED).count()).toBe(0);
        await visit(page, '/crm/S/customers', ['/crm/S/customers', 'Customers'], shop);
        await visit(page, '/crm/S/service-list', ['/crm/S/service-list', 'Service Requests'], shop);
        await expect.poll(() => page.getByText(NOT_ENABLED).count()).toBe(0);
      },
      TEST_TIMEOUT * 3,
    );
  }

  test(
    "the /maven family for a user of the provider's own CRM",
    async () => {
      const username = unique('mav');
      await addMavenUser(server, { username, pin: '9753' });
      const page = await pageFor(await signInUser(server, 'maven', username, '9753'));
      const shop = { subdomain: 'maven', customerId: '', name: 'maven' };
      for (const [route, outcome] of MAVEN_ROUTES) await visit(page, route, outcome, shop);
    },
    TEST_TIMEOUT * 2,
  );
});
