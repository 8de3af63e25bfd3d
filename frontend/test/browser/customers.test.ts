import type { Browser, Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { createCustomer } from '../../../backend/src/customers/index.ts';
import { systemContext } from '../../../backend/src/shared/commands.ts';
import { signInUser, type TestServer } from '../../../backend/test/support/server.ts';
import {
  addMavenUser,
  addUser,
  createShop,
  newPage,
  ownServer,
  postAll,
  postOne,
  type Shop,
  signedInPage,
  SLOW,
  snap,
  TEST_TIMEOUT,
  toastTexts,
  unique,
  serverAndBrowserForFile,
} from './support.ts';

// One server and one browser for the file; every test makes its own instance, records and browser context.
let server: TestServer;
let browser: Browser;

serverAndBrowserForFile((s, b) => ([server, browser] = [s, b]));

const customersPath = (shop: Shop) => `/crm/${shop.subdomain}/customers`;
const customersApi = (shop: Shop) => `/api/${shop.subdomain}/customers`;

const card = (page: Page, name: string) => page.getByTestId('customer-card').filter({ has: page.getByRole('link', { name, exact: true }) });

/** Opens the list and waits for it to load (a card, or the empty state). */
async function openCustomers(page: Page, shop: Shop): Promise<void> {
  await page.goto(customersPath(shop));
  await expect.poll(() => page.getByRole('heading', { name: 'Customers', level: 1 }).count(), { timeout: SLOW }).toBe(1);
}

const ADA = {
  name: 'Ada Lovelace',
  phone: '5551234567',
  email: 'ada@example.com',
  address: '12 Engine Street, Leeds',
  vehicles: ['2019 Honda Civic', '2020 Ford F-150'],
};
const BOB = { name: 'Bob Builder', phone: '555-987-6543', vehicles: '2015 Bobcat' };

// Toast texts are counted with toBeGreaterThan(0): Radix also reads them out through a hidden copy.
describe('customers', () => {
  test(
    'signs in through the login screen and finds an empty customer list',
    async () => {
      const shop = await createShop(server, 'tyreshop');
      const { page } = await newPage(browser, { baseURL: server.url });
      await page.goto(`/crm/${shop.subdomain}`);
      await page.getByLabel('Username').fill(shop.instance.admin.username);
      await page.getByLabel('PIN', { exact: true }).fill(shop.instance.admin.pin);
      await page.getByRole('button', { name: 'Sign In' }).click();
      await page.waitForURL('**/dashboard');

      await page.goto(customersPath(shop));
      await expect.poll(() => page.getByText('No customers yet.').count(), { timeout: SLOW }).toBe(1);
      await expect.poll(() => page.getByText("Click 'Add Customer' to get started.").count()).toBe(1);
      await expect.poll(() => page.getByText('Manage your customer database.').count()).toBe(1);
    },
    TEST_TIMEOUT,
  );

  test(
    'the add dialog: an empty form is refused, the phone formats, vehicles become chips, closing asks first; the card shows a summary',
    async () => {
      const shop = await createShop(server, 'tyreshop');
      const { page } = await signedInPage(browser, shop.owner);
      await openCustomers(page, shop);
      await expect.poll(() => page.getByText('No customers yet.').count()).toBe(1);

      // An empty form is refused, at Name.
      await page.getByRole('button', { name: 'Add Customer' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add New Customer' });
      await dialog.getByRole('button', { name: 'Create Customer' }).click();
      await expect.poll(() => dialog.getByText('At least one field must be filled out').count()).toBe(1);

      // Fill it in: the phone formats as typed, vehicles become chips.
      await dialog.getByLabel('Name').fill('Ada Lovelace');
      await dialog.getByLabel('Phone').pressSequentially('5551234567');
      await expect.poll(() => dialog.getByLabel('Phone').inputValue()).toBe('555-123-4567');
      await dialog.getByLabel('Email').fill('ada@example.com');
      await dialog.getByLabel('Address').fill('12 Engine Street, Leeds');
      const vehicles = dialog.getByLabel('Vehicles', { exact: true });
      await vehicles.fill('2019 Honda Civic');
      await vehicles.press('Enter');
      await vehicles.fill('2020 Ford F-150');
      await vehicles.press('Enter');
      await expect.poll(() => dialog.getByRole('button', { name: /^Remove / }).count()).toBe(2);
      // A repeat in another case is not added; Escape cancels the typed text, not the dialog.
      await vehicles.fill('2019 HONDA civic');
      await vehicles.press('Enter');
      await expect.poll(() => dialog.getByRole('button', { name: /^Remove / }).count()).toBe(2);
      await vehicles.fill('half typed');
      await vehicles.press('Escape');
      await expect.poll(() => vehicles.inputValue()).toBe('');
      await expect.poll(() => dialog.isVisible()).toBe(true);
      await dialog.getByLabel('Past Appointments').fill('Civic oil change, F-150 brakes, Civic tyres');
      await dialog.getByLabel('Invoices').fill('INV-1, INV-2, INV-3, INV-4');
      await snap(page, 'customers-modal');

      // Closing with changes asks first.
      await page.keyboard.press('Escape');
      const confirm = page.getByRole('alertdialog');
      await expect
        .poll(() => confirm.getByText('You have unsaved changes. Are you sure you want to close without saving?').count())
        .toBe(1);
      await confirm.getByRole('button', { name: 'Keep Editing' }).click();
      await expect.poll(() => confirm.count()).toBe(0);
      await expect.poll(() => dialog.getByLabel('Name').inputValue()).toBe('Ada Lovelace');

      await dialog.getByRole('button', { name: 'Create Customer' }).click();
      await expect.poll(() => page.getByText('Customer created', { exact: true }).count(), { timeout: SLOW }).toBeGreaterThan(0);
      await expect.poll(() => dialog.count()).toBe(0);
      const ada = card(page, 'Ada Lovelace');
      await expect.poll(() => ada.count()).toBe(1);
      const adaText = () => ada.innerText();
      await expect.poll(adaText).toContain('Customer ID: #1');
      await expect.poll(adaText).toContain('•••-•••-4567');
      await expect.poll(adaText).not.toContain('555-123-4567');
      await expect.poll(adaText).toContain('2019 Honda Civic');
      await expect.poll(adaText).toContain('2020 Ford F-150');
      await expect.poll(adaText).toContain('Civic oil change');
      await expect.poll(adaText).toContain('+1 more...');
      await expect.poll(adaText).toContain('INV-3');
      await expect.poll(adaText).not.toContain('INV-4');
      await expect.poll(adaText).toContain('+1 more');
    },
    TEST_TIMEOUT,
  );

  test(
    'the edit dialog shows the whole phone; the saved changes show on the card',
    async () => {
      const shop = await createShop(server, 'tyreshop');
      await postOne(shop.owner, customersApi(shop), ADA);
      await postOne(shop.owner, customersApi(shop), BOB);
      const { page } = await signedInPage(browser, shop.owner);
      await openCustomers(page, shop);
      await page.getByRole('button', { name: 'Edit Ada Lovelace' }).click();
      const editDialog = page.getByRole('dialog', { name: 'Edit Customer' });
      await expect.poll(() => editDialog.getByLabel('Phone').inputValue()).toBe('555-123-4567');
      await editDialog.getByLabel('Phone').fill('');
      await editDialog.getByLabel('Phone').pressSequentially('555-000-1111');
      await editDialog.getByLabel('Notes').fill('Prefers mornings');
      await editDialog.getByRole('button', { name: 'Remove 2020 Ford F-150' }).click();
      await editDialog.getByRole('button', { name: 'Save Changes' }).click();
      await expect.poll(() => page.getByText('Customer updated', { exact: true }).count(), { timeout: SLOW }).toBeGreaterThan(0);
      await expect.poll(() => card(page, 'Ada Lovelace').innerText()).toContain('•••-•••-1111');
      await expect.poll(() => card(page, 'Ada Lovelace').innerText()).not.toContain('2020 Ford F-150');
      await expect.poll(() => page.getByTestId('customer-count').innerText()).toBe('2 customers');
      await snap(page, 'customers-list');
    },
    TEST_TIMEOUT,
  );

  test(
    'search runs on the server: by name, by phone digits, and nothing',
    async () => {
      const shop = await createShop(server, 'tyreshop');
      await postOne(shop.owner, customersApi(shop), { ...ADA, phone: '555-000-1111' });
      await postOne(shop.owner, customersApi(shop), BOB);
      const { page } = await signedInPage(browser, shop.owner);
      await openCustomers(page, shop);
      await expect.poll(() => page.getByTestId('customer-card').count()).toBe(2);
      const search = page.getByRole('searchbox', { name: 'Search customers' });
      await search.fill('bob');
      await expect.poll(() => page.getByTestId('customer-card').count()).toBe(1);
      await expect.poll(() => card(page, 'Bob Builder').count()).toBe(1);
      await expect.poll(() => new URL(page.url()).searchParams.get('q')).toBe('bob');
      await search.fill('0001111');
      await expect.poll(() => card(page, 'Ada Lovelace').count()).toBe(1);
      await expect.poll(() => page.getByTestId('customer-card').count()).toBe(1);
      await search.fill('555-987');
      await expect.poll(() => card(page, 'Bob Builder').count()).toBe(1);
      await expect.poll(() => page.getByTestId('customer-card').count()).toBe(1);
      await search.fill('nobody like this');
      await expect.poll(() => page.getByText('No customers match your search.').count()).toBe(1);
      await search.fill('');
      await expect.poll(() => page.getByTestId('customer-card').count()).toBe(2);
    },
    TEST_TIMEOUT,
  );

  for (const [scheme, phone] of [
    ['light', false],
    ['dark', false],
    ['light', true],
  ] as const) {
    test(
      `the card lists the customer's vehicle records as they are now, and the search finds a customer by a vehicle's model and VIN (${scheme}${phone ? ', phone' : ''})`,
      async () => {
        const shop = await createShop(server, 'vehcards');
        const api = customersApi(shop);
        const base = `/api/${shop.subdomain}`;
        // Typed on the customer form: each becomes a record.
        const carla = await postOne(shop.owner, api, { name: 'Carla Cards', vehicles: ['2015 Ford F-150', '2008 Kia Rio'] });
        await postOne(shop.owner, api, BOB);
        const records = (await shop.owner.get(`${base}/customers/${carla.id}/vehicles`)).body.items as Array<{ id: string; label: string }>;
        const f150 = records.find((v) => v.label === '2015 Ford F-150')!;
        const rio = records.find((v) => v.label === '2008 Kia Rio')!;
        // Added on the vehicle form, renamed and deleted on their pages.
        await postOne(shop.owner, `${base}/customers/${carla.id}/vehicles`, {
          year: 2019,
          make: 'Subaru',
          model: 'Outback',
          vin: '4S4BSANC8K3123456',
        });
        expect((await shop.owner.put(`${base}/vehicles/${f150.id}`, { model: 'Ranger' })).status).toBe(200);
        expect((await shop.owner.delete(`${base}/vehicles/${rio.id}`)).status).toBe(200);

        const { page } = await signedInPage(browser, shop.owner, { colorScheme: scheme, phone });
        if (phone) await page.setViewportSize({ width: 390, height: 844 });
        await openCustomers(page, shop);
        const carlaCard = card(page, 'Carla Cards');
        const badges = () => carlaCard.getByRole('listitem').allInnerTexts();
        await expect.poll(badges, { timeout: SLOW }).toEqual(['2015 Ford Ranger', '2019 Subaru Outback']);
        await snap(page, `customer-card-vehicle-records-${scheme}${phone ? '-390' : ''}`);

        const search = page.getByRole('searchbox', { name: 'Search customers' });
        await search.fill('outback');
        await expect.poll(() => page.getByTestId('customer-card').count()).toBe(1);
        await expect.poll(() => carlaCard.count()).toBe(1);
        await search.fill('4S4BSANC8K3123456');
        await expect.poll(() => new URL(page.url()).searchParams.get('q')).toBe('4S4BSANC8K3123456');
        await expect.poll(() => page.getByTestId('customer-card').count()).toBe(1);
        await expect.poll(() => carlaCard.count()).toBe(1);
        await snap(page, `customer-search-by-vin-${scheme}${phone ? '-390' : ''}`);
      },
      TEST_TIMEOUT,
    );
  }

  test(
    "the customer's page: the whole phone, the history old → new, and the customer as it was",
    async () => {
      const shop = await createShop(server, 'tyreshop');
      const ada = await postOne(shop.owner, customersApi(shop), ADA);
      const updated = await shop.owner.put(`${customersApi(shop)}/${ada.id}`, {
        phone: '555-000-1111',
        notes: 'Prefers mornings',
        vehicles: ['2019 Honda Civic'],
      });
      expect(updated.status, updated.text).toBe(200);
      // A job made after both changes: the customer as she was before has none yet.
      await postOne(shop.owner, `/api/${shop.subdomain}/pipeline`, { name: 'Ada Lovelace', customerId: ada.id, part: 'Wiper blades' });
      const { page } = await signedInPage(browser, shop.owner);
      await openCustomers(page, shop);
      await card(page, 'Ada Lovelace').getByRole('link', { name: 'Ada Lovelace' }).click();
      await page.waitForURL(/\/customers\/[0-9a-f-]{36}$/);
      await expect.poll(() => page.getByRole('heading', { name: 'Ada Lovelace', level: 1 }).count()).toBe(1);
      await expect.poll(() => page.getByText('555-000-1111').first().isVisible()).toBe(true);
      const rows = page.getByTestId('history-row');
      await expect.poll(() => rows.count()).toBe(2);
      const updatedRow = () => rows.nth(0).innerText();
      await expect.poll(updatedRow).toContain('Updated');
      await expect.poll(updatedRow).toContain('Owner');
      // "→" is what the eye sees; a screen reader hears "changed to".
      await expect.poll(updatedRow).toMatch(/555-123-4567\s*→\s*changed to\s*555-000-1111/);
      await expect.poll(updatedRow).toMatch(/2019 Honda Civic, 2020 Ford F-150\s*→\s*changed to\s*2019 Honda Civic\n/);
      await expect.poll(updatedRow).toContain('Prefers mornings');
      await expect.poll(() => rows.nth(1).innerText()).toContain('Created');
      await expect.poll(() => page.getByRole('link', { name: /Wiper blades/ }).count()).toBe(1);
      await snap(page, 'customer-page');

      await rows.nth(1).getByRole('button').click();
      await expect.poll(() => page.getByText('Showing this customer as it was on').count()).toBe(1);
      await expect.poll(() => new URL(page.url()).searchParams.get('asOf')).toBeTruthy();
      await expect.poll(() => page.getByText('555-123-4567').count()).toBeGreaterThan(1);
      await expect.poll(() => page.getByRole('definition').filter({ hasText: '2020 Ford F-150' }).count()).toBe(1);
      await expect.poll(() => page.getByText('No pipeline jobs for this customer by then.').count()).toBe(1);
      await expect.poll(() => page.getByRole('link', { name: /Wiper blades/ }).count()).toBe(0);
      await snap(page, 'customer-page-as-of');
      await page.getByRole('button', { name: 'Back to current' }).click();
      await expect.poll(() => page.getByText('Showing this customer as it was on').count()).toBe(0);
      await expect.poll(() => page.getByRole('link', { name: /Wiper blades/ }).count()).toBe(1);
    },
    TEST_TIMEOUT,
  );

  test(
    'deleting a customer from her page takes typing delete; the list no longer has her',
    async () => {
      const shop = await createShop(server, 'tyreshop');
      const ada = await postOne(shop.owner, customersApi(shop), ADA);
      await postOne(shop.owner, customersApi(shop), BOB);
      const { page } = await signedInPage(browser, shop.owner);
      await page.goto(`${customersPath(shop)}/${ada.id}`);
      await expect.poll(() => page.getByRole('heading', { name: 'Ada Lovelace', level: 1 }).count(), { timeout: SLOW }).toBe(1);
      await page.getByRole('button', { name: 'Delete', exact: true }).click();
      const deleteDialog = page.getByRole('alertdialog');
      await expect.poll(() => deleteDialog.innerText()).toContain('all associated pipeline jobs');
      const deleteButton = deleteDialog.getByRole('button', { name: 'Delete Customer' });
      await expect.poll(() => deleteButton.isDisabled()).toBe(true);
      await deleteDialog.getByLabel('Type delete to confirm').fill('DeLeTe');
      await expect.poll(() => deleteButton.isDisabled()).toBe(false);
      await deleteButton.click();
      await expect
        .poll(() => toastTexts(page), { timeout: SLOW })
        .toContain('Customer and all associated jobs and vehicles have been deleted. An admin can restore them from Deleted records.');
      await page.waitForURL((url) => url.pathname === customersPath(shop));
      await expect.poll(() => page.getByTestId('customer-card').count()).toBe(1);
      await expect.poll(() => card(page, 'Bob Builder').count()).toBe(1);
      await expect.poll(() => card(page, 'Ada Lovelace').count()).toBe(0);
    },
    TEST_TIMEOUT,
  );

  test(
    "a customer's page lists the customer's jobs; deleting the customer from the list takes the jobs too",
    async () => {
      const shop = await createShop(server, 'tyreshop');
      const bob = await postOne(shop.owner, customersApi(shop), BOB);
      await postOne(shop.owner, `/api/${shop.subdomain}/pipeline`, { name: 'Bob Builder', part: 'Brake pads', customerId: bob.id });
      const { page } = await signedInPage(browser, shop.owner);
      await openCustomers(page, shop);
      await card(page, 'Bob Builder').getByRole('link', { name: 'Bob Builder' }).click();
      await expect.poll(() => page.getByText('Brake pads', { exact: false }).count()).toBe(1);
      await page.goBack();
      await page.getByRole('button', { name: 'Delete Bob Builder' }).click();
      await page.getByRole('alertdialog').getByLabel('Type delete to confirm').fill('delete');
      await page.getByRole('alertdialog').getByRole('button', { name: 'Delete Customer' }).click();
      await expect.poll(() => page.getByText('No customers yet.').count(), { timeout: SLOW }).toBe(1);
      await expect.poll(async () => (await shop.owner.get(`/api/${shop.subdomain}/pipeline?canceled=include`)).body.total).toBe(0);
    },
    TEST_TIMEOUT,
  );

  test(
    'the standalone pages create and edit with the same form and return to the list',
    async () => {
      const shop = await createShop(server, 'tyreshop');
      const { page } = await signedInPage(browser, shop.owner);
      await page.goto(`${customersPath(shop)}/new`);
      await expect.poll(() => page.getByRole('heading', { name: 'Add New Customer' }).count(), { timeout: SLOW }).toBe(1);
      await page.getByLabel('Name').fill('Carla Clutch');
      await page.getByLabel('Vehicles', { exact: true }).fill('2018 Mazda MX-5');
      await page.getByLabel('Vehicles', { exact: true }).press('Enter');
      // Leaving with changes asks first.
      await page.getByRole('link', { name: 'Back to Customers' }).click();
      await expect.poll(() => page.getByRole('alertdialog').count()).toBe(1);
      await page.getByRole('button', { name: 'Keep Editing' }).click();
      await page.getByRole('button', { name: 'Create Customer' }).click();
      await page.waitForURL((url) => url.pathname === customersPath(shop));
      await expect.poll(() => card(page, 'Carla Clutch').count()).toBe(1);

      const list = await shop.owner.get(`${customersApi(shop)}?q=carla`);
      const id = list.body.items[0].id as string;
      await page.goto(`${customersPath(shop)}/${id}/edit`);
      await expect.poll(() => page.getByLabel('Name').inputValue(), { timeout: SLOW }).toBe('Carla Clutch');
      await page.getByLabel('Address').fill('3 Gearbox Lane');
      await page.getByRole('button', { name: 'Save Changes' }).click();
      await page.waitForURL((url) => url.pathname === customersPath(shop));
      await expect.poll(() => card(page, 'Carla Clutch').innerText()).toContain('3 Gearbox Lane');
    },
    TEST_TIMEOUT,
  );

  for (const variant of [
    { name: 'dark', options: { colorScheme: 'dark' as const } },
    { name: 'phone', options: { phone: true } },
    { name: 'phone-dark', options: { phone: true, colorScheme: 'dark' as const } },
  ]) {
    test(
      `screenshots: ${variant.name} (the list, the dialog, the customer page)`,
      async () => {
        // A few customers to look at.
        const shop = await createShop(server, 'tyreshop');
        await postAll(shop.owner, customersApi(shop), [
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
        ]);

        const { page } = await signedInPage(browser, shop.owner, variant.options);
        await openCustomers(page, shop);
        await expect.poll(() => card(page, 'Dana Diesel').count()).toBe(1);
        await expect.poll(() => page.getByText('Unnamed Customer', { exact: true }).count()).toBe(1);
        await expect.poll(() => page.getByTestId('customer-card').count()).toBe(3);
        await snap(page, `customers-list-${variant.name}`);

        await page.getByRole('button', { name: 'Add Customer' }).click();
        const dialog = page.getByRole('dialog', { name: 'Add New Customer' });
        await dialog.getByLabel('Name').fill('Frank Fender');
        await dialog.getByLabel('Vehicles', { exact: true }).fill('2010 Saab 9-3');
        await dialog.getByLabel('Vehicles', { exact: true }).press('Enter');
        await expect.poll(() => dialog.getByRole('button', { name: 'Remove 2010 Saab 9-3' }).count()).toBe(1);
        await snap(page, `customers-modal-${variant.name}`);
        await page.keyboard.press('Escape');
        await page.getByRole('alertdialog').getByRole('button', { name: 'Close Without Saving' }).click();
        await expect.poll(() => dialog.count()).toBe(0);

        await card(page, 'Dana Diesel').getByRole('link', { name: 'Dana Diesel' }).click();
        await expect.poll(() => page.getByTestId('history-row').count()).toBe(1);
        await snap(page, `customer-page-${variant.name}`);
      },
      TEST_TIMEOUT,
    );
  }

  test(
    'the list loads a page at a time: "Load more" follows the cursor',
    async () => {
      const shop = await createShop(server, 'tyreshop');
      const paged = (i: number) => ({ name: `Paged Customer ${String(i).padStart(2, '0')}` });
      await postAll(
        shop.owner,
        customersApi(shop),
        Array.from({ length: 54 }, (_, i) => paged(i + 1)),
      );
      // The last one on its own, so that it is the newest.
      await postOne(shop.owner, customersApi(shop), paged(55));
      const total = 55;

      const { page } = await signedInPage(browser, shop.owner);
      await openCustomers(page, shop);
      await expect.poll(() => page.getByTestId('customer-count').innerText()).toBe(`Showing 50 of ${total} customers`);
      // Newest first.
      await expect.poll(() => page.getByTestId('customer-card').first().innerText()).toContain('Paged Customer 55');
      await page.getByRole('button', { name: 'Load more' }).click();
      await expect.poll(() => page.getByTestId('customer-card').count()).toBe(total);
      await expect.poll(() => page.getByTestId('customer-count').innerText()).toBe(`${total} customers`);
      await expect.poll(() => page.getByRole('button', { name: 'Load more' }).count()).toBe(0);

      // A search counts its own matches.
      await page.getByRole('searchbox', { name: 'Search customers' }).fill('paged customer 0');
      await expect.poll(() => page.getByTestId('customer-count').innerText()).toBe('9 customers matching "paged customer 0"');
    },
    TEST_TIMEOUT,
  );

  test(
    'a plain user (role user) may add and edit but not delete',
    async () => {
      const shop = await createShop(server, 'tyreshop');
      await addUser(shop.owner, { username: 'clerk', displayName: 'Clerk', pin: '2468' });
      await postOne(shop.owner, customersApi(shop), { name: 'Gina Gasket' });
      const clerk = await signInUser(server, shop.subdomain, 'clerk', '2468');

      const { page } = await signedInPage(browser, clerk);
      await openCustomers(page, shop);
      await expect.poll(() => card(page, 'Gina Gasket').count()).toBe(1);
      // Role user: read and write, no delete.
      await expect.poll(() => page.getByRole('button', { name: 'Add Customer' }).count()).toBe(1);
      await expect.poll(() => page.getByRole('button', { name: 'Edit Gina Gasket' }).count()).toBe(1);
      await expect.poll(() => page.getByRole('button', { name: /^Delete / }).count()).toBe(0);
      await card(page, 'Gina Gasket').getByRole('link', { name: 'Gina Gasket' }).click();
      await expect.poll(() => page.getByRole('button', { name: 'Edit', exact: true }).count()).toBe(1);
      await expect.poll(() => page.getByRole('button', { name: 'Delete', exact: true }).count()).toBe(0);
    },
    TEST_TIMEOUT,
  );

  test(
    'without write permission there is nothing to change, and the form pages lead back to the list',
    async () => {
      const shop = await createShop(server, 'tyreshop');
      const clerkId = await addUser(shop.owner, { username: 'clerk', displayName: 'Clerk', pin: '2468' });
      expect((await shop.owner.patch(`/api/admin/users/${clerkId}/permissions`, { canWrite: false })).status).toBe(200);
      await postOne(shop.owner, customersApi(shop), { name: 'Gina Gasket' });
      const clerk = await signInUser(server, shop.subdomain, 'clerk', '2468');

      const { page } = await signedInPage(browser, clerk);
      await openCustomers(page, shop);
      await expect.poll(() => card(page, 'Gina Gasket').count()).toBe(1);
      await expect.poll(() => page.getByRole('button', { name: 'Add Customer' }).count()).toBe(0);
      await expect.poll(() => page.getByRole('button', { name: /^(Edit|Delete) / }).count()).toBe(0);
      await page.goto(`${customersPath(shop)}/new`);
      await page.waitForURL((url) => url.pathname === customersPath(shop));
    },
    TEST_TIMEOUT,
  );

  test(
    "/maven/customers is the same screen, on the provider's own instance",
    async () => {
      // A server of its own: the provider's instance starts with no customers there.
      const own = await ownServer();
      const elsewhere = await createShop(own, 'tyreshop');
      const username = unique('mavencust');
      await addMavenUser(own, { username, pin: '1357' });
      const maven = await signInUser(own, 'maven', username, '1357');

      const { page } = await signedInPage(browser, maven);
      await page.goto('/maven/customers');
      await expect.poll(() => page.getByRole('heading', { name: 'Customers', level: 1 }).count(), { timeout: SLOW }).toBe(1);
      await expect.poll(() => page.getByText('No customers yet.').count()).toBe(1);
      await page.getByRole('button', { name: 'Add Customer' }).click();
      const dialog = page.getByRole('dialog', { name: 'Add New Customer' });
      await dialog.getByLabel('Email').fill('not-an-email');
      await dialog.getByRole('button', { name: 'Create Customer' }).click();
      await expect.poll(() => dialog.getByText('Email must be valid').count()).toBe(1);
      await dialog.getByLabel('Email').fill('maven@example.com');
      await dialog.getByLabel('Notes').fill('Provider customer');
      await dialog.getByRole('button', { name: 'Create Customer' }).click();
      await expect.poll(() => page.getByText('Unnamed Customer', { exact: true }).count(), { timeout: SLOW }).toBe(1);
      await expect.poll(() => new URL(page.url()).pathname).toBe('/maven/customers');
      // Only the provider's instance has it; another instance's customers are not the maven user's to read.
      await expect.poll(async () => (await maven.get('/api/maven/customers')).body.total).toBe(1);
      expect((await maven.get(customersApi(elsewhere))).status).toBe(404);
    },
    TEST_TIMEOUT,
  );
  test(
    "the customer page lists the customer's vehicles once: the records, then old labels that have none",
    async () => {
      const shop = await createShop(server, 'onelist');
      // A customer whose vehicles were typed before each became a record: labels only.
      const { customerId } = await createCustomer(
        server.runtime.deps,
        { name: 'Vic Vehicles', vehicles: ['2018 Mazda MX-5', '2010 Saab 9-3'] },
        { ...systemContext(new Date(), 'old-data', 'Old data'), instanceId: shop.instance.id },
      );
      await server.caughtUp();
      const customer = { id: customerId };
      await postOne(shop.owner, `${customersApi(shop)}/${customer.id}/vehicles`, {
        year: 2018,
        make: 'Mazda',
        model: 'MX-5',
        plate: 'ZOOM1',
      });
      const { page } = await signedInPage(browser, shop.owner);
      await page.goto(`${customersPath(shop)}/${customer.id}`);
      const vehicles = page.getByRole('list', { name: 'Vehicles' });
      await expect.poll(() => vehicles.getByRole('listitem').allInnerTexts(), { timeout: SLOW }).toHaveLength(2);
      // The record links to its page; the vehicle typed only on the customer is listed, unlinked, once.
      await expect.poll(() => vehicles.getByRole('link', { name: '2018 Mazda MX-5' }).count()).toBe(1);
      await expect.poll(() => vehicles.getByRole('listitem').filter({ hasText: '2010 Saab 9-3' }).count()).toBe(1);
      // The details have no second list of them.
      await expect.poll(() => page.locator('#customer-details').getByText('Vehicles', { exact: true }).count()).toBe(0);
      await expect.poll(() => page.getByText('2018 Mazda MX-5', { exact: true }).count()).toBe(1);
      await snap(page, 'customer-vehicles-one-list');
    },
    TEST_TIMEOUT,
  );

  test(
    'a vehicle typed on the customer form, new customer or edit, is a vehicle record: a link on its page to the vehicle, with its history',
    async () => {
      const shop = await createShop(server, 'formrecords');
      for (const options of [{}, { colorScheme: 'dark' as const }, { phone: true }]) {
        const suffix = `${options.colorScheme === 'dark' ? '-dark' : ''}${options.phone ? '-phone' : ''}`;
        const name = `Rita Records${suffix}`;
        const { page } = await signedInPage(browser, shop.owner, options);
        await openCustomers(page, shop);
        await page.getByRole('button', { name: 'Add Customer' }).click();
        const dialog = page.getByRole('dialog', { name: 'Add New Customer' });
        await dialog.getByLabel('Name').fill(name);
        const typed = dialog.getByLabel('Vehicles', { exact: true });
        await typed.fill('2016 Subaru Outback');
        await typed.press('Enter');
        await dialog.getByRole('button', { name: 'Create Customer' }).click();
        await expect.poll(() => toastTexts(page), { timeout: SLOW }).toContain('Customer created');
        await card(page, name).getByRole('link', { name, exact: true }).click();
        await page.waitForURL(/\/customers\/[0-9a-f-]{36}$/);
        const vehicles = page.getByRole('list', { name: 'Vehicles' });
        await expect.poll(() => vehicles.getByRole('link', { name: '2016 Subaru Outback' }).count(), { timeout: SLOW }).toBe(1);
        await expect.poll(() => vehicles.getByText('No page of its own yet').count()).toBe(0);

        // An edit adds one more: a record too, listed at once.
        await page.getByRole('button', { name: 'Edit' }).click();
        const edit = page.getByRole('dialog', { name: 'Edit Customer' });
        const more = edit.getByLabel('Vehicles', { exact: true });
        await more.fill('2021 Kia Soul');
        await more.press('Enter');
        await edit.getByRole('button', { name: 'Save Changes' }).click();
        await expect.poll(() => edit.count(), { timeout: SLOW }).toBe(0);
        await expect.poll(() => vehicles.getByRole('link', { name: '2021 Kia Soul' }).count(), { timeout: SLOW }).toBe(1);
        await expect.poll(() => vehicles.getByRole('listitem').count()).toBe(2);
        await snap(page, `customer-form-vehicle-records${suffix}`);

        // Its own page, with its history.
        await vehicles.getByRole('link', { name: '2016 Subaru Outback' }).click();
        await page.waitForURL(/\/vehicles\/[0-9a-f-]{36}$/);
        await expect.poll(() => page.getByText('Vehicle added').count(), { timeout: SLOW }).toBeGreaterThan(0);
        await snap(page, `customer-form-vehicle-page${suffix}`);
      }
    },
    TEST_TIMEOUT,
  );
});
