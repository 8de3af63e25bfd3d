import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, onTestFailed, test } from 'vitest';
import {
  createTestInstance,
  signInSuperAdmin,
  signInUser,
  startTestServer,
  type TestInstance,
  type TestServer,
} from '../../../backend/test/support/server.ts';
import { launchBrowser, newPage, snap } from './support.ts';

let server: TestServer;
let browser: Browser;
let instance: TestInstance;

beforeAll(async () => {
  [server, browser] = await Promise.all([startTestServer(), launchBrowser()]);
  instance = await createTestInstance(server, 'tyreshop', { username: 'owner', pin: '1234' });
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** expect.poll waits 1 s by default: too short for a loaded two-core machine. */
const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 10_000 });

const customersPath = () => `/crm/${instance.subdomain}/customers`;

/** A page for one test; on failure its screen is saved as customers-failure.png for a person to look at. */
async function openPage(options: Parameters<typeof newPage>[1]) {
  const opened = await newPage(browser, options);
  onTestFailed(async () => {
    await snap(opened.page, 'customers-failure').catch(() => {});
  });
  return opened;
}

/** Calls the API from the page, as the app does (cookies, the cross-site guard header). */
async function api<T = any>(page: Page, method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
  return await page.evaluate(
    async ({ method, path, body }) => {
      const response = await fetch(path, {
        method,
        headers: { 'Content-Type': 'application/json', ...(method === 'GET' ? {} : { 'X-CRM-Request': '1' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : null };
    },
    { method, path, body },
  );
}

/** Signs in through the API (the login screen has its own test below). */
async function signInByApi(page: Page): Promise<void> {
  await page.goto(`/crm/${instance.subdomain}`);
  const res = await api(page, 'POST', '/api/auth/login', { ...instance.admin, instance: instance.subdomain });
  expect(res.status).toBe(200);
}

const card = (page: Page, name: string) => page.getByTestId('customer-card').filter({ has: page.getByRole('link', { name, exact: true }) });

// Toast texts are counted with toBeGreaterThan(0): Radix also reads them out through a hidden copy.
describe('customers', () => {
  test('add with two vehicles, edit, search by name and phone, history old → new, delete after typing delete', async () => {
    const { page, context } = await openPage({ baseURL: server.url });

    // Sign in through the login screen.
    await page.goto(`/crm/${instance.subdomain}`);
    await page.getByLabel('Username').fill(instance.admin.username);
    await page.getByLabel('PIN', { exact: true }).fill(instance.admin.pin);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL('**/dashboard');

    await page.goto(customersPath());
    await poll(() => page.getByText('No customers yet.').count()).toBe(1);
    await poll(() => page.getByText("Click 'Add Customer' to get started.").count()).toBe(1);
    expect(await page.getByText('Manage your customer database.').count()).toBe(1);

    // An empty form is refused, at Name.
    await page.getByRole('button', { name: 'Add Customer' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add New Customer' });
    await dialog.getByRole('button', { name: 'Create Customer' }).click();
    await poll(() => dialog.getByText('At least one field must be filled out').count()).toBe(1);

    // Fill it in: the phone formats as typed, vehicles become chips.
    await dialog.getByLabel('Name').fill('Ada Lovelace');
    await dialog.getByLabel('Phone').pressSequentially('5551234567');
    expect(await dialog.getByLabel('Phone').inputValue()).toBe('555-123-4567');
    await dialog.getByLabel('Email').fill('ada@example.com');
    await dialog.getByLabel('Address').fill('12 Engine Street, Leeds');
    const vehicles = dialog.getByLabel('Vehicles', { exact: true });
    await vehicles.fill('2019 Honda Civic');
    await vehicles.press('Enter');
    await vehicles.fill('2020 Ford F-150');
    await vehicles.press('Enter');
    // A repeat in another case is not added; Escape cancels the typed text, not the dialog.
    await vehicles.fill('2019 HONDA civic');
    await vehicles.press('Enter');
    expect(await dialog.getByRole('button', { name: /^Remove / }).count()).toBe(2);
    await vehicles.fill('half typed');
    await vehicles.press('Escape');
    expect(await vehicles.inputValue()).toBe('');
    expect(await dialog.isVisible()).toBe(true);
    await dialog.getByLabel('Past Appointments').fill('Civic oil change, F-150 brakes, Civic tyres');
    await dialog.getByLabel('Invoices').fill('INV-1, INV-2, INV-3, INV-4');
    await snap(page, 'customers-modal');

    // Closing with changes asks first.
    await page.keyboard.press('Escape');
    const confirm = page.getByRole('alertdialog');
    await poll(() => confirm.getByText('You have unsaved changes. Are you sure you want to close without saving?').count()).toBe(1);
    await confirm.getByRole('button', { name: 'Keep Editing' }).click();
    await poll(() => confirm.count()).toBe(0);
    expect(await dialog.getByLabel('Name').inputValue()).toBe('Ada Lovelace');

    await dialog.getByRole('button', { name: 'Create Customer' }).click();
    await poll(() => page.getByText('Customer created', { exact: true }).count()).toBeGreaterThan(0);
    await poll(() => dialog.count()).toBe(0);
    const ada = card(page, 'Ada Lovelace');
    await poll(() => ada.count()).toBe(1);
    const adaText = await ada.innerText();
    expect(adaText).toContain('Customer ID: #1');
    expect(adaText).toContain('•••-•••-4567');
    expect(adaText).not.toContain('555-123-4567');
    expect(adaText).toContain('2019 Honda Civic');
    expect(adaText).toContain('2020 Ford F-150');
    expect(adaText).toContain('Civic oil change');
    expect(adaText).toContain('+1 more...');
    expect(adaText).toContain('INV-3');
    expect(adaText).not.toContain('INV-4');
    expect(adaText).toContain('+1 more');

    // A second customer, with a job linked to it.
    const bob = await api(page, 'POST', `/api/${instance.subdomain}/customers`, {
      name: 'Bob Builder',
      phone: '555-987-6543',
      vehicles: '2015 Bobcat',
    });
    expect(bob.status).toBe(201);
    const job = await api(page, 'POST', `/api/${instance.subdomain}/pipeline`, {
      name: 'Bob Builder',
      part: 'Brake pads',
      customerId: bob.body.id,
    });
    expect(job.status).toBe(201);

    // Edit Ada: the dialog shows the whole phone.
    await page.reload();
    await page.getByRole('button', { name: 'Edit Ada Lovelace' }).click();
    const editDialog = page.getByRole('dialog', { name: 'Edit Customer' });
    await poll(() => editDialog.getByLabel('Phone').inputValue()).toBe('555-123-4567');
    await editDialog.getByLabel('Phone').fill('');
    await editDialog.getByLabel('Phone').pressSequentially('555-000-1111');
    await editDialog.getByLabel('Notes').fill('Prefers mornings');
    await editDialog.getByRole('button', { name: 'Remove 2020 Ford F-150' }).click();
    await editDialog.getByRole('button', { name: 'Save Changes' }).click();
    await poll(() => page.getByText('Customer updated', { exact: true }).count()).toBeGreaterThan(0);
    await poll(async () => await card(page, 'Ada Lovelace').innerText()).toContain('•••-•••-1111');
    expect(await card(page, 'Ada Lovelace').innerText()).not.toContain('2020 Ford F-150');
    await poll(() => page.getByTestId('customer-count').innerText()).toBe('2 customers');
    await snap(page, 'customers-list');

    // Search on the server: by name, by phone digits, and nothing.
    const search = page.getByRole('searchbox', { name: 'Search customers' });
    await search.fill('bob');
    await poll(() => page.getByTestId('customer-card').count()).toBe(1);
    expect(await card(page, 'Bob Builder').count()).toBe(1);
    expect(new URL(page.url()).searchParams.get('q')).toBe('bob');
    await search.fill('0001111');
    await poll(() => card(page, 'Ada Lovelace').count()).toBe(1);
    await poll(() => page.getByTestId('customer-card').count()).toBe(1);
    await search.fill('555-987');
    await poll(() => card(page, 'Bob Builder').count()).toBe(1);
    await poll(() => page.getByTestId('customer-card').count()).toBe(1);
    await search.fill('nobody like this');
    await poll(() => page.getByText('No customers match your search.').count()).toBe(1);
    await search.fill('');
    await poll(() => page.getByTestId('customer-card').count()).toBe(2);

    // The customer page: whole phone, history with old → new, time travel.
    await card(page, 'Ada Lovelace').getByRole('link', { name: 'Ada Lovelace' }).click();
    await page.waitForURL(/\/customers\/[0-9a-f-]{36}$/);
    await poll(() => page.getByRole('heading', { name: 'Ada Lovelace', level: 1 }).count()).toBe(1);
    await poll(() => page.getByText('555-000-1111').first().isVisible()).toBe(true);
    const rows = page.getByTestId('history-row');
    await poll(() => rows.count()).toBe(2);
    const updatedRow = await rows.nth(0).innerText();
    expect(updatedRow).toContain('Updated');
    expect(updatedRow).toContain('Owner');
    // "→" is what the eye sees; a screen reader hears "changed to".
    expect(updatedRow).toMatch(/555-123-4567\s*→\s*changed to\s*555-000-1111/);
    expect(updatedRow).toMatch(/2019 Honda Civic, 2020 Ford F-150\s*→\s*changed to\s*2019 Honda Civic\n/);
    expect(updatedRow).toContain('Prefers mornings');
    expect(await rows.nth(1).innerText()).toContain('Created');
    await poll(() => page.getByText('No pipeline jobs for this customer.').count()).toBe(1);
    await snap(page, 'customer-page');

    await rows.nth(1).getByRole('button').click();
    await poll(() => page.getByText('Showing this customer as it was on').count()).toBe(1);
    expect(new URL(page.url()).searchParams.get('asOf')).toBeTruthy();
    await poll(() => page.getByText('555-123-4567').count()).toBeGreaterThan(1);
    const details = page.getByRole('definition').filter({ hasText: '2020 Ford F-150' });
    await poll(() => details.count()).toBe(1);
    await snap(page, 'customer-page-as-of');
    await page.getByRole('button', { name: 'Back to current' }).click();
    await poll(() => page.getByText('Showing this customer as it was on').count()).toBe(0);

    // Delete Ada from her page, after typing delete.
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    const deleteDialog = page.getByRole('alertdialog');
    expect(await deleteDialog.innerText()).toContain('all associated pipeline jobs');
    const deleteButton = deleteDialog.getByRole('button', { name: 'Delete Permanently' });
    expect(await deleteButton.isDisabled()).toBe(true);
    await deleteDialog.getByLabel('Type delete to confirm').fill('DeLeTe');
    expect(await deleteButton.isDisabled()).toBe(false);
    await deleteButton.click();
    await poll(() => page.getByText('Customer and all associated jobs have been permanently deleted.').count()).toBeGreaterThan(0);
    await page.waitForURL((url) => url.pathname === customersPath());
    await poll(() => page.getByTestId('customer-card').count()).toBe(1);
    expect(await card(page, 'Ada Lovelace').count()).toBe(0);

    // Bob's page lists his job; deleting him from the list takes the job too.
    await card(page, 'Bob Builder').getByRole('link', { name: 'Bob Builder' }).click();
    await poll(() => page.getByText('Brake pads', { exact: false }).count()).toBe(1);
    await page.goBack();
    await page.getByRole('button', { name: 'Delete Bob Builder' }).click();
    await page.getByRole('alertdialog').getByLabel('Type delete to confirm').fill('delete');
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete Permanently' }).click();
    await poll(() => page.getByText('No customers yet.').count()).toBe(1);
    const jobs = await api(page, 'GET', `/api/${instance.subdomain}/pipeline?canceled=include`);
    expect(jobs.body.total).toBe(0);
    await context.close();
  }, 90_000);

  test('the standalone pages create and edit with the same form and return to the list', async () => {
    const { page, context } = await openPage({ baseURL: server.url });
    await signInByApi(page);
    await page.goto(`${customersPath()}/new`);
    await poll(() => page.getByRole('heading', { name: 'Add New Customer' }).count()).toBe(1);
    await page.getByLabel('Name').fill('Carla Clutch');
    await page.getByLabel('Vehicles', { exact: true }).fill('2018 Mazda MX-5');
    await page.getByLabel('Vehicles', { exact: true }).press('Enter');
    // Leaving with changes asks first.
    await page.getByRole('link', { name: 'Back to Customers' }).click();
    await poll(() => page.getByRole('alertdialog').count()).toBe(1);
    await page.getByRole('button', { name: 'Keep Editing' }).click();
    await page.getByRole('button', { name: 'Create Customer' }).click();
    await page.waitForURL((url) => url.pathname === customersPath());
    await poll(() => card(page, 'Carla Clutch').count()).toBe(1);

    const list = await api(page, 'GET', `/api/${instance.subdomain}/customers?q=carla`);
    const id = list.body.items[0].id as string;
    await page.goto(`${customersPath()}/${id}/edit`);
    await poll(() => page.getByLabel('Name').inputValue()).toBe('Carla Clutch');
    await page.getByLabel('Address').fill('3 Gearbox Lane');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await page.waitForURL((url) => url.pathname === customersPath());
    await poll(async () => await card(page, 'Carla Clutch').innerText()).toContain('3 Gearbox Lane');
    await context.close();
  }, 90_000);

  test('screenshots: dark and phone', async () => {
    // A few customers to look at.
    {
      const { page, context } = await openPage({ baseURL: server.url });
      await signInByApi(page);
      const seed = [
        {
          name: 'Dana Diesel',
          phone: '5552223333',
          address: '9 Piston Road',
          vehicles: ['2017 VW Golf', '2021 Toyota Hilux', '2012 Land Rover Defender'],
          pastAppointments: 'Golf service, Hilux tyres, Defender MOT',
          invoices: 'INV-10, INV-11',
        },
        { phone: '5554445555', notes: 'Walk-in' },
        {
          name: 'Eve Exhaust',
          email: 'eve@example.com',
          vehicles: '2016 Subaru Outback',
          invoices: 'INV-20, INV-21, INV-22, INV-23, INV-24',
        },
      ];
      for (const body of seed) expect((await api(page, 'POST', `/api/${instance.subdomain}/customers`, body)).status).toBe(201);
      await context.close();
    }

    for (const variant of [
      { name: 'dark', options: { colorScheme: 'dark' as const } },
      { name: 'phone', options: { phone: true } },
      { name: 'phone-dark', options: { phone: true, colorScheme: 'dark' as const } },
    ]) {
      const { page, context } = await openPage({ baseURL: server.url, ...variant.options });
      await signInByApi(page);
      await page.goto(customersPath());
      await poll(() => card(page, 'Dana Diesel').count()).toBe(1);
      expect(await page.getByText('Unnamed Customer', { exact: true }).count()).toBe(1);
      await snap(page, `customers-list-${variant.name}`);

      await page.getByRole('button', { name: 'Add Customer' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add New Customer' });
      await dialog.getByLabel('Name').fill('Frank Fender');
      await dialog.getByLabel('Vehicles', { exact: true }).fill('2010 Saab 9-3');
      await dialog.getByLabel('Vehicles', { exact: true }).press('Enter');
      await snap(page, `customers-modal-${variant.name}`);
      await page.keyboard.press('Escape');
      await page.getByRole('alertdialog').getByRole('button', { name: 'Close Without Saving' }).click();
      await poll(() => dialog.count()).toBe(0);

      await card(page, 'Dana Diesel').getByRole('link', { name: 'Dana Diesel' }).click();
      await poll(() => page.getByTestId('history-row').count()).toBe(1);
      await snap(page, `customer-page-${variant.name}`);
      await context.close();
    }
  }, 120_000);

  test('the list loads a page at a time: "Load more" follows the cursor', async () => {
    const { page, context } = await openPage({ baseURL: server.url });
    await signInByApi(page);
    const before = (await api(page, 'GET', `/api/${instance.subdomain}/customers?limit=1`)).body.total as number;
    const statuses = await page.evaluate(async (base) => {
      const results: number[] = [];
      for (let i = 1; i <= 55; i++) {
        const response = await fetch(base, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'X-CRM-Request': '1' },
          body: JSON.stringify({ name: `Paged Customer ${String(i).padStart(2, '0')}` }),
        });
        results.push(response.status);
      }
      return results;
    }, `/api/${instance.subdomain}/customers`);
    expect(statuses.every((status) => status === 201)).toBe(true);
    const total = before + 55;

    await page.goto(customersPath());
    await poll(() => page.getByTestId('customer-count').innerText()).toBe(`Showing 50 of ${total} customers`);
    // Newest first.
    expect(await page.getByTestId('customer-card').first().innerText()).toContain('Paged Customer 55');
    await page.getByRole('button', { name: 'Load more' }).click();
    await poll(() => page.getByTestId('customer-card').count()).toBe(total);
    expect(await page.getByTestId('customer-count').innerText()).toBe(`${total} customers`);
    expect(await page.getByRole('button', { name: 'Load more' }).count()).toBe(0);

    // A search counts its own matches.
    await page.getByRole('searchbox', { name: 'Search customers' }).fill('paged customer 0');
    await poll(() => page.getByTestId('customer-count').innerText()).toBe('9 customers matching "paged customer 0"');
    await context.close();
  }, 90_000);
  test('actions follow the permissions: no delete for a plain user, no add or edit without write', async () => {
    const owner = await signInUser(server, instance.subdomain, instance.admin.username, instance.admin.pin);
    const created = await owner.post('/api/admin/users', { username: 'clerk', displayName: 'Clerk', pin: '2468', role: 'user' });
    expect(created.status, created.text).toBe(201);
    const customer = await owner.post(`/api/${instance.subdomain}/customers`, { name: 'Gina Gasket' });
    expect(customer.status).toBe(201);

    const { page, context } = await openPage({ baseURL: server.url });
    await page.goto(`/crm/${instance.subdomain}`);
    expect((await api(page, 'POST', '/api/auth/login', { username: 'clerk', pin: '2468', instance: instance.subdomain })).status).toBe(200);
    await page.goto(customersPath());
    await poll(() => card(page, 'Gina Gasket').count()).toBe(1);
    // Role user: read and write, no delete (DECISIONS.md §3).
    expect(await page.getByRole('button', { name: 'Add Customer' }).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Edit Gina Gasket' }).count()).toBe(1);
    expect(await page.getByRole('button', { name: /^Delete / }).count()).toBe(0);
    await card(page, 'Gina Gasket').getByRole('link', { name: 'Gina Gasket' }).click();
    await poll(() => page.getByRole('button', { name: 'Edit', exact: true }).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Delete', exact: true }).count()).toBe(0);
    await context.close();

    // Without write: nothing to change, and the form pages lead back.
    const users = (await owner.get('/api/admin/users')).body as Array<{ id: string; username: string }>;
    const clerk = users.find((user) => user.username === 'clerk')!;
    expect((await owner.patch(`/api/admin/users/${clerk.id}/permissions`, { canWrite: false })).status).toBe(200);
    const readOnly = await openPage({ baseURL: server.url });
    await readOnly.page.goto(`/crm/${instance.subdomain}`);
    await api(readOnly.page, 'POST', '/api/auth/login', { username: 'clerk', pin: '2468', instance: instance.subdomain });
    await readOnly.page.goto(customersPath());
    await poll(() => card(readOnly.page, 'Gina Gasket').count()).toBe(1);
    expect(await readOnly.page.getByRole('button', { name: 'Add Customer' }).count()).toBe(0);
    expect(await readOnly.page.getByRole('button', { name: /^(Edit|Delete) / }).count()).toBe(0);
    await readOnly.page.goto(`${customersPath()}/new`);
    await readOnly.page.waitForURL((url) => url.pathname === customersPath());
    await readOnly.context.close();
  }, 90_000);

  test("/maven/customers is the same screen, on the provider's own instance", async () => {
    const superAdmin = await signInSuperAdmin(server);
    const maven = (await superAdmin.get('/api/crm-instances')).body.find((i: { subdomain: string }) => i.subdomain === 'maven');
    const added = await superAdmin.post(`/api/crm-instances/${maven.id}/users`, { username: 'mavencust', pin: '1357', role: 'admin' });
    expect(added.status, added.text).toBe(201);

    const { page, context } = await openPage({ baseURL: server.url });
    await page.goto('/maven');
    expect((await api(page, 'POST', '/api/auth/login', { username: 'mavencust', pin: '1357', instance: 'maven' })).status).toBe(200);
    await page.goto('/maven/customers');
    await poll(() => page.getByRole('heading', { name: 'Customers', level: 1 }).count()).toBe(1);
    await poll(() => page.getByText('No customers yet.').count()).toBe(1);
    await page.getByRole('button', { name: 'Add Customer' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add New Customer' });
    await dialog.getByLabel('Email').fill('not-an-email');
    await dialog.getByRole('button', { name: 'Create Customer' }).click();
    await poll(() => dialog.getByText('Email must be valid').count()).toBe(1);
    await dialog.getByLabel('Email').fill('maven@example.com');
    await dialog.getByLabel('Notes').fill('Provider customer');
    await dialog.getByRole('button', { name: 'Create Customer' }).click();
    await poll(() => page.getByText('Unnamed Customer', { exact: true }).count()).toBe(1);
    expect(new URL(page.url()).pathname).toBe('/maven/customers');
    // Only the provider's instance has it.
    expect((await api(page, 'GET', '/api/maven/customers')).body.total).toBe(1);
    expect((await api(page, 'GET', `/api/${instance.subdomain}/customers`)).status).toBe(404);
    await context.close();
  }, 90_000);
});
