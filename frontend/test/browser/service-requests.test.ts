import type { Browser, Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { ApiClient, signInSuperAdmin, type TestServer } from '../../../backend/test/support/server.ts';
import {
  createShop,
  newPage,
  postAll,
  postOne,
  type Shop,
  signedInPage,
  SLOW,
  snap,
  snapViewport,
  TEST_TIMEOUT,
  serverAndBrowserForFile,
} from './support.ts';

// One server and one browser for the file; every test makes its own instance, records and browser context.
let server: TestServer;
let browser: Browser;

serverAndBrowserForFile((s, b) => ([server, browser] = [s, b]));

const api = (shop: Shop) => `/api/${shop.subdomain}/service-requests`;
const count = (page: Page, text: string) => page.getByText(text, { exact: true }).count();

async function openList(page: Page, shop: Shop): Promise<void> {
  await page.goto(`/crm/${shop.subdomain}/service-list`);
  await expect.poll(() => page.getByRole('heading', { name: 'Service Requests', level: 1 }).count(), { timeout: SLOW }).toBe(1);
}

/** Turns a shop's switches through the super admin's instance edit. */
async function editInstance(shop: Shop, changes: Record<string, unknown>): Promise<void> {
  const provider = await signInSuperAdmin(server);
  const res = await provider.put(`/api/crm-instances/${shop.instance.id}`, changes);
  if (res.status !== 200) throw new Error(`instance edit failed: ${res.status} ${res.text}`);
}

describe('service requests', () => {
  test(
    'the form: required fields, submit, Success! with its three ways on; the list finds it',
    async () => {
      const shop = await createShop(server, 'srform');
      const { page } = await signedInPage(browser, shop.owner);
      await page.goto(`/crm/${shop.subdomain}/service-form`);
      await expect.poll(() => page.getByRole('heading', { name: 'Service Request Form' }).count(), { timeout: SLOW }).toBe(1);
      await snap(page, 'service-form-desktop-light');

      // Empty: the browser's required fields say what is missing; nothing is sent.
      await page.getByRole('button', { name: 'Submit Request' }).click();
      await expect.poll(() => count(page, 'Customer name is required')).toBe(1);
      await expect.poll(() => count(page, 'Vehicle type is required')).toBe(1);
      await page.getByLabel('Customer Name').fill('Grace Hopper');
      await page.getByLabel('Contact Email').fill('grace@');
      await page.getByLabel('Vehicle Type').fill('1966 Ford Mustang');
      await page.getByRole('button', { name: 'Submit Request' }).click();
      await expect.poll(() => count(page, 'If provided, email must be valid')).toBe(1);

      await page.getByLabel('Contact Email').fill('grace@example.com');
      await page.getByLabel('Service Type').selectOption('Brake Service');
      await page.getByLabel('Scheduled Date').fill('2026-04-02');
      await page.getByLabel('Additional Notes').fill('Grinding noise from the front left');
      await page.getByRole('button', { name: 'Submit Request' }).click();
      await expect.poll(() => page.getByRole('heading', { name: 'Success!' }).count(), { timeout: SLOW }).toBe(1);
      await expect
        .poll(() => page.getByRole('link', { name: 'Back to Quote Form' }).getAttribute('href'))
        .toBe(`/crm/${shop.subdomain}/pipeline`);
      await snap(page, 'service-form-success-desktop-light');

      // Submit Another: an empty form again.
      await page.getByRole('button', { name: 'Submit Another' }).click();
      await expect.poll(() => page.getByLabel('Customer Name').inputValue()).toBe('');
      await page.getByRole('link', { name: 'View All Requests' }).click();
      await page.waitForURL(`**/crm/${shop.subdomain}/service-list`);
      const row = page.getByRole('row').filter({ hasText: 'Grace Hopper' });
      await expect.poll(() => row.count(), { timeout: SLOW }).toBe(1);
      await expect
        .poll(() => row.getByRole('cell').allTextContents())
        .toEqual(['SR-1', 'Grace HopperFor Apr 2, 2026', 'grace@example.com', '1966 Ford Mustang', 'Brake Service', 'Open', 'View']);
      await expect.poll(() => page.getByTestId('service-request-count').textContent()).toBe('1 request');
    },
    TEST_TIMEOUT,
  );

  test(
    'the list: empty text, server-side search with its own empty text, pages, cards on a phone, both themes',
    async () => {
      const shop = await createShop(server, 'srlist');
      const { page } = await signedInPage(browser, shop.owner);
      await openList(page, shop);
      await expect.poll(() => count(page, 'No service requests have been submitted yet.'), { timeout: SLOW }).toBe(1);

      const services = ['Oil Change', 'Tire Rotation', 'Brake Service', 'Engine Repair', 'Transmission', 'Other'];
      await postAll(
        shop.owner,
        api(shop),
        Array.from({ length: 55 }, (_, i) => ({
          customerName: `Customer ${String(i + 1).padStart(2, '0')}`,
          contactEmail: `c${i + 1}@example.com`,
          vehicleType: i % 2 ? 'Toyota Camry' : 'Honda Accord',
          serviceType: services[i % services.length],
          additionalNotes: i === 7 ? 'Wants a loaner vehicle' : '',
        })),
      );
      await page.reload();
      await expect.poll(() => page.getByTestId('service-request-count').textContent(), { timeout: SLOW }).toBe('Showing 50 of 55 requests');
      await snapViewport(page, 'service-list-desktop-light');
      // The 55 new requests reach the open list as live updates too: a refresh of the list that
      // lands with the click can replace the pages it loaded, so click again while it still shows 50.
      const loadMore = page.getByRole('button', { name: 'Load more' });
      await expect
        .poll(
          async () => {
            const shown = await page.getByTestId('service-request-count').textContent();
            if (shown !== '55 requests' && (await loadMore.isVisible()) && (await loadMore.isEnabled())) await loadMore.click();
            return shown;
          },
          { timeout: SLOW, interval: 2_000 },
        )
        .toBe('55 requests');

      // The server searches notes too, and the address keeps the search.
      await page.getByLabel('Search service requests').fill('LOANER');
      await expect.poll(() => page.getByTestId('service-request-count').textContent()).toBe('1 request matching "LOANER"');
      await expect.poll(() => page.getByRole('row').filter({ hasText: 'Customer 08' }).count()).toBe(1);
      await expect.poll(() => new URL(page.url()).searchParams.get('q')).toBe('LOANER');
      await page.getByLabel('Search service requests').fill('nothing like this');
      await expect.poll(() => count(page, 'No matching records found. Try a different search term.')).toBe(1);

      const { page: phone } = await signedInPage(browser, shop.owner, { phone: true, colorScheme: 'dark' });
      await openList(phone, shop);
      await expect
        .poll(() => phone.getByRole('list', { name: 'Service requests' }).getByRole('listitem').count(), { timeout: SLOW })
        .toBe(50);
      await expect.poll(() => phone.getByRole('table').count()).toBe(0);
      await snapViewport(phone, 'service-list-phone-dark');
      const { page: dark } = await signedInPage(browser, shop.owner, { colorScheme: 'dark' });
      await openList(dark, shop);
      await expect.poll(() => dark.getByTestId('service-request-count').textContent(), { timeout: SLOW }).toBe('Showing 50 of 55 requests');
      await snapViewport(dark, 'service-list-desktop-dark');
      const { page: phoneLight } = await signedInPage(browser, shop.owner, { phone: true });
      await phoneLight.goto(`/crm/${shop.subdomain}/service-form`);
      await expect.poll(() => phoneLight.getByRole('heading', { name: 'Service Request Form' }).count(), { timeout: SLOW }).toBe(1);
      await snap(phoneLight, 'service-form-phone-light');
    },
    TEST_TIMEOUT,
  );

  test(
    'view and edit with history; Create job opens the entry dialog prefilled and converts on save; the request then opens its job',
    async () => {
      const shop = await createShop(server, 'srjob');
      const request = await postOne(shop.owner, api(shop), {
        customerName: 'Linus Torvalds',
        contactEmail: 'linus@example.com',
        vehicleType: '2012 Volvo V70',
        serviceType: 'Oil Change',
        scheduledDate: '2026-05-04',
        additionalNotes: 'Synthetic oil please',
      });
      const { page } = await signedInPage(browser, shop.owner);
      await openList(page, shop);
      await page.getByRole('link', { name: 'View SR-1 Linus Torvalds' }).click();
      await page.waitForURL(`**/edit-service/${request.id}`);
      await expect.poll(() => page.getByRole('heading', { name: 'Service Request SR-1' }).count(), { timeout: SLOW }).toBe(1);
      await expect.poll(() => count(page, 'Synthetic oil please')).toBe(1);

      // Edit: only the service type changes; the history shows it.
      await page.getByRole('button', { name: 'Edit' }).click();
      await page.getByLabel('Service Type').selectOption('Engine Repair');
      await page.getByRole('button', { name: 'Save Changes' }).click();
      await expect.poll(() => page.getByRole('heading', { name: 'Request', exact: true }).count(), { timeout: SLOW }).toBe(1);
      await expect.poll(() => count(page, 'Engine Repair')).toBe(1);
      await page.getByRole('button', { name: 'History' }).click();
      const history = page.getByRole('list', { name: 'History' });
      await expect
        .poll(() => history.getByRole('listitem').first().textContent(), { timeout: SLOW })
        .toContain('Oil Change → Engine Repair');
      await snap(page, 'service-request-detail-desktop-light');

      // Create job: the pipeline's dialog, filled in from the request.
      await page.getByRole('button', { name: 'Create job' }).click();
      const dialog = page.getByRole('dialog');
      await expect.poll(() => dialog.getByLabel('Name', { exact: true }).inputValue(), { timeout: SLOW }).toBe('Linus Torvalds');
      await expect.poll(() => dialog.getByLabel('Part').inputValue()).toBe('Engine Repair');
      await expect.poll(() => dialog.getByLabel('Notes').inputValue()).toContain('From service request SR-1');
      await dialog.getByLabel('Phone').fill('5550001111');
      await snap(page, 'service-request-create-job-desktop-light');
      await expect.poll(() => dialog.getByRole('button', { name: 'Add Entry' }).count()).toBe(1);
      // Enter in a field saves (the form's submit), whatever toast sits over the button.
      await dialog.getByLabel('Phone').press('Enter');
      await expect.poll(() => page.getByRole('dialog').count(), { timeout: SLOW }).toBe(0);
      await expect.poll(() => page.getByText(/Converted to job #\d+/).count(), { timeout: SLOW }).toBe(1);
      await expect.poll(() => page.getByRole('button', { name: 'Create job' }).count()).toBe(0);

      // One job, in the pipeline, linked back by its number.
      const converted = (await shop.owner.get(`${api(shop)}/${request.id}`)).body;
      expect(converted.status).toBe('converted');
      const jobs = (await shop.owner.get(`/api/${shop.subdomain}/pipeline`)).body.items;
      expect(jobs.map((j: { name: string }) => j.name)).toEqual(['Linus Torvalds']);
      expect(jobs[0].jobNumber).toBe(converted.jobNumber);

      await page.getByRole('button', { name: `Open job #${converted.jobNumber}` }).click();
      await expect.poll(() => page.getByRole('dialog').getByLabel('Job Number').inputValue(), { timeout: SLOW }).toBe(converted.jobNumber);
      await page.keyboard.press('Escape');

      const { page: phone } = await signedInPage(browser, shop.owner, { phone: true, colorScheme: 'dark' });
      await phone.goto(`/edit-service/${request.id}`);
      await expect.poll(() => phone.getByText(/Converted to job #\d+/).count(), { timeout: SLOW }).toBe(1);
      await snap(phone, 'service-request-detail-phone-dark');
    },
    TEST_TIMEOUT,
  );

  test(
    'the public page: off says so; on, a visitor sends a request; staff see a badge on Service Requests',
    async () => {
      const shop = await createShop(server, 'srpublic');
      const { page: visitor } = await newPage(browser, { baseURL: server.url, phone: true });
      await visitor.goto(`/${shop.subdomain}/request`);
      await expect
        .poll(() => count(visitor, 'This shop does not take service requests online. Please call the shop.'), { timeout: SLOW })
        .toBe(1);

      await editInstance(shop, { publicRequests: true });
      await visitor.reload();
      await expect.poll(() => visitor.getByRole('heading', { name: 'Request a Service' }).count(), { timeout: SLOW }).toBe(1);
      await expect.poll(() => count(visitor, `${shop.subdomain} Auto`)).toBe(1);
      // The shop's customers get no staff Login or Register links in the header.
      for (const name of ['Login', 'Register']) {
        await expect.poll(() => visitor.getByRole('banner').getByRole('link', { name }).count()).toBe(0);
      }
      await snap(visitor, 'public-request-phone-light');
      await visitor.getByLabel('Customer Name').fill('Margaret Hamilton');
      await visitor.getByLabel('Contact Email').fill('margaret@example.com');
      await visitor.getByLabel('Vehicle Type').fill('2018 Subaru Outback');
      await visitor.getByLabel('Service Type').selectOption('Tire Rotation');
      await visitor.getByRole('button', { name: 'Send Request' }).click();
      await expect.poll(() => visitor.getByRole('heading', { name: 'Success!' }).count(), { timeout: SLOW }).toBe(1);

      const { page } = await signedInPage(browser, shop.owner, { colorScheme: 'dark' });
      await page.goto(`/crm/${shop.subdomain}/dashboard`);
      const link = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /Service Requests/ });
      await expect.poll(() => link.textContent(), { timeout: SLOW }).toContain('1 new from the public request page');
      await snap(page, 'service-requests-nav-badge-desktop-dark');
      // On a phone the navigation wraps onto rows; the badge's hidden text must not widen the page.
      const { page: phoneStaff } = await signedInPage(browser, shop.owner, { phone: true });
      await phoneStaff.goto(`/crm/${shop.subdomain}/dashboard`);
      const phoneLink = phoneStaff.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /Service Requests/ });
      await expect.poll(() => phoneLink.textContent(), { timeout: SLOW }).toContain('1 new from the public request page');
      await expect
        .poll(() => phoneStaff.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth))
        .toBe(0);
      await link.click();
      const row = page.getByRole('row').filter({ hasText: 'Margaret Hamilton' });
      await expect.poll(() => row.getByText('New · Online').count(), { timeout: SLOW }).toBe(1);

      const { page: desktopVisitor } = await newPage(browser, { baseURL: server.url, colorScheme: 'dark' });
      await desktopVisitor.goto(`/${shop.subdomain}/request`);
      await expect.poll(() => desktopVisitor.getByRole('heading', { name: 'Request a Service' }).count(), { timeout: SLOW }).toBe(1);
      await snap(desktopVisitor, 'public-request-desktop-dark');
    },
    TEST_TIMEOUT,
  );

  test(
    "the wanted day reads as a date wherever it shows (the list, the request, its history, the audit log), the same day in the shop's zone and the browser's",
    async () => {
      // The shop ten hours behind UTC, the browser fourteen ahead: a day read as a UTC midnight would move.
      const shop = await createShop(server, 'srdate', undefined, { timeZone: 'Pacific/Honolulu' });
      const request = await postOne(shop.owner, api(shop), {
        customerName: 'Dora Dated',
        contactPhone: '5551234567',
        vehicleType: '2015 Kia Soul',
        scheduledDate: '2026-12-04',
      });
      const changed = await shop.owner.put(`${api(shop)}/${request.id}`, { scheduledDate: '2026-12-07' });
      expect(changed.status, changed.text).toBe(200);
      const { page } = await signedInPage(browser, shop.owner, { timezoneId: 'Pacific/Kiritimati' });
      const main = page.getByRole('main');
      await openList(page, shop);
      await expect.poll(() => main.textContent(), { timeout: SLOW }).toContain('Dec 7, 2026');
      await page.goto(`/edit-service/${request.id}`);
      await expect.poll(() => main.textContent(), { timeout: SLOW }).toContain('Dec 7, 2026');
      await page.getByRole('button', { name: 'History' }).click();
      const history = page.getByRole('list', { name: 'History' });
      await expect.poll(() => history.textContent(), { timeout: SLOW }).toContain('Dec 4, 2026');
      await expect.poll(() => history.textContent()).toContain('Dec 7, 2026');
      await expect.poll(() => history.textContent()).toContain('555-123-4567');
      await expect.poll(() => main.textContent()).not.toMatch(/2026-12-0\d/);
      await page.goto(`/crm/${shop.subdomain}/admin/audit`);
      await expect.poll(() => main.getByText('Dora Dated').count(), { timeout: SLOW }).toBeGreaterThan(0);
      await expect.poll(() => main.textContent()).toContain('Dec 4, 2026');
      await expect.poll(() => main.textContent()).toContain('Dec 7, 2026');
      await expect.poll(() => main.textContent()).toContain('555-123-4567');
      await expect.poll(() => main.textContent()).not.toMatch(/2026-12-0\d/);
    },
    TEST_TIMEOUT,
  );

  test(
    'with the feature off: no navigation link, the screens say it is not enabled, the API answers 404',
    async () => {
      const shop = await createShop(server, 'sroff');
      await editInstance(shop, { features: { serviceRequests: false } });
      const { page } = await signedInPage(browser, shop.owner);
      await page.goto(`/crm/${shop.subdomain}/dashboard`);
      await expect
        .poll(() => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Pipeline' }).count(), { timeout: SLOW })
        .toBe(1);
      await expect
        .poll(() =>
          page
            .getByRole('navigation', { name: 'Main' })
            .getByRole('link', { name: /Service Requests/ })
            .count(),
        )
        .toBe(0);
      await page.goto(`/crm/${shop.subdomain}/service-list`);
      await expect.poll(() => page.getByRole('heading', { name: 'Service Requests', level: 1 }).count(), { timeout: SLOW }).toBe(1);
      await expect.poll(() => page.getByText(/not (turned on|enabled) for this CRM/).count()).toBe(1);
      expect((await new ApiClient(server.url).get(`/api/public/${shop.subdomain}/request-page`)).body.enabled).toBe(false);
      expect((await shop.owner.get(api(shop))).status).toBe(404);
    },
    TEST_TIMEOUT,
  );
});
