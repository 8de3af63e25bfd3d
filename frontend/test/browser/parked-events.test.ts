import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { expect, test } from 'vitest';
import { createPostgresEventStore } from '@crm/projections/eventstore/postgres';
import { signInSuperAdmin, type TestServer } from '../../../backend/test/support/server.ts';
import { createShop, serverAndBrowserForFile, signedInPage, SLOW, snap, TEST_TIMEOUT } from './support.ts';
import { testEventMetadata } from '@crm/projections/testing/events';

let server: TestServer;
let browser: Browser;

serverAndBrowserForFile((s, b) => ([server, browser] = [s, b]));

/** Where the looks of this screen are kept for people to check (both themes, desktop and phone). */
async function shots(page: Page, name: string) {
  mkdirSync('/tmp/shots-nolost', { recursive: true });
  await page.screenshot({ path: `/tmp/shots-nolost/${name}.png`, fullPage: true });
  await snap(page, name);
}

/**
 * Appends an event its schema refuses, written by a writer without inline read models (an
 * older version): the log holds it, the projector parks it.
 */
async function appendPoison(stream: string, instanceId: string, type: string, data: Record<string, unknown>) {
  const revision = (await server.runtime.deps.store.readStream(stream)).at(-1)!.revision;
  const writer = createPostgresEventStore({ connectionString: server.runtime.deps.config.DATABASE_URL! });
  try {
    await writer.append(
      stream,
      [
        {
          id: randomUUID(),
          type,
          data,
          metadata: testEventMetadata(instanceId),
        },
      ],
      { expectedRevision: revision },
    );
  } finally {
    await writer.close();
  }
  await server.caughtUp();
}

test(
  'a parked change: the customer page says it could not be shown, and the provider page lists it with its error',
  async () => {
    const shop = await createShop(server, 'parkui');
    const created = await shop.owner.post('/api/customers', { name: 'Parked Patty', phone: '5550142' });
    expect(created.status, created.text).toBe(201);
    const stream = `customer-${created.body.id}`;
    await appendPoison(stream, shop.instance.id, 'CustomerUpdated', { customerId: created.body.id, name: 42 });

    for (const [theme, phone] of [
      ['light', false],
      ['dark', true],
    ] as const) {
      const { page } = await signedInPage(browser, shop.owner, { colorScheme: theme, phone });
      await page.goto(`/crm/${shop.subdomain}/customers/${created.body.id}`);
      await expect
        .poll(() => page.getByTestId('parked-changes-notice').textContent(), { timeout: SLOW })
        .toContain('A change to this record could not be shown');
      await shots(page, `parked-customer-${theme}-${phone ? 'phone' : 'desktop'}`);
    }

    for (const [theme, phone] of [
      ['dark', false],
      ['light', true],
    ] as const) {
      const { page } = await signedInPage(browser, await signInSuperAdmin(server), { colorScheme: theme, phone });
      await page.goto('/crm-selection');
      const list = page.getByRole('list', { name: 'Parked events' });
      await expect.poll(() => list.getByText(stream).count(), { timeout: SLOW }).toBe(1);
      await expect.poll(() => list.getByText(shop.subdomain).count()).toBeGreaterThan(0);
      await expect.poll(() => list.getByText('ZodError').count()).toBeGreaterThan(0);
      await page.getByRole('heading', { name: 'Parked events' }).scrollIntoViewIfNeeded();
      await shots(page, `parked-provider-${theme}-${phone ? 'phone' : 'desktop'}`);
    }
  },
  TEST_TIMEOUT,
);

test(
  "a shop's admin sees their own shop's parked changes on the Admin Dashboard, each linked to its record; a clean shop says all are shown",
  async () => {
    const shop = await createShop(server, 'parkadm', undefined, { timeZone: 'Pacific/Auckland' });
    const job = await shop.owner.post(`/api/${shop.subdomain}/pipeline`, { name: 'Parked Job', part: 'Brakes' });
    expect(job.status, job.text).toBe(201);
    await appendPoison(`job-${job.body.id}`, shop.instance.id, 'JobUpdated', { jobId: job.body.id, name: 42 });
    // The read models and a reactor may each park it: one change either way.
    const parked = (await shop.owner.get('/api/admin/parked-events')).body as Array<{ parkedAt: string; eventId: string }>;
    expect(new Set(parked.map((p) => p.eventId)).size).toBe(1);
    const clean = await createShop(server, 'parkclean');

    for (const [theme, phone] of [
      ['light', false],
      ['dark', true],
    ] as const) {
      const { page } = await signedInPage(browser, shop.owner, { colorScheme: theme, phone });
      await page.goto(`/crm/${shop.subdomain}/admin`);
      const list = page.getByRole('list', { name: 'Parked events' });
      await expect.poll(() => list.getByRole('listitem').count(), { timeout: SLOW }).toBe(1);
      await expect.poll(() => list.getByText('JobUpdated').count()).toBe(1);
      await expect.poll(() => list.getByText('ZodError').count()).toBeGreaterThan(0);
      // The time as the shop's clock shows it (Auckland), whatever the browser's own zone.
      const shopTime = await page.evaluate(
        (iso) =>
          new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium', timeZone: 'Pacific/Auckland' }).format(
            new Date(iso),
          ),
        parked[0]!.parkedAt,
      );
      await expect.poll(() => list.getByText(shopTime).count()).toBe(1);
      // Another shop's parked change (the customer of the first test) is not this shop's.
      await expect.poll(() => list.getByText('CustomerUpdated').count()).toBe(0);
      await page.getByRole('heading', { name: 'Parked events' }).scrollIntoViewIfNeeded();
      await shots(page, `parked-admin-${theme}-${phone ? 'phone' : 'desktop'}`);
      await list.getByRole('link', { name: `Job ${job.body.id}` }).click();
      await expect.poll(() => new URL(page.url()).searchParams.get('job'), { timeout: SLOW }).toBe(job.body.id);
    }

    const { page } = await signedInPage(browser, clean.owner, { colorScheme: 'dark' });
    await page.goto(`/crm/${clean.subdomain}/admin`);
    await expect
      .poll(() => page.getByText('None: every change recorded in this shop is shown on the screens.').count(), { timeout: SLOW })
      .toBe(1);
    await page.getByRole('heading', { name: 'Parked events' }).scrollIntoViewIfNeeded();
    await shots(page, 'parked-admin-empty-dark-desktop');
  },
  TEST_TIMEOUT,
);
