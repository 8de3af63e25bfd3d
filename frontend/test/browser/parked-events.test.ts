import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { expect, test } from 'vitest';
import { createPostgresEventStore } from '@crm/projections/eventstore/postgres';
import { signInSuperAdmin, type TestServer } from '../../../backend/test/support/server.ts';
import { createShop, serverAndBrowserForFile, signedInPage, SLOW, snap, TEST_TIMEOUT } from './support.ts';

let server: TestServer;
let browser: Browser;

serverAndBrowserForFile((s, b) => ([server, browser] = [s, b]));

/** Where the looks of this screen are kept for people to check (both themes, desktop and phone). */
async function shots(page: Page, name: string) {
  mkdirSync('/tmp/shots-nolost', { recursive: true });
  await page.screenshot({ path: `/tmp/shots-nolost/${name}.png`, fullPage: true });
  await snap(page, name);
}

test(
  'a parked change: the customer page says it could not be shown, and the provider page lists it with its error',
  async () => {
    const shop = await createShop(server, 'parkui');
    const created = await shop.owner.post('/api/customers', { name: 'Parked Patty', phone: '5550142' });
    expect(created.status, created.text).toBe(201);
    const stream = `customer-${created.body.id}`;
    const revision = (await server.runtime.deps.store.readStream(stream)).at(-1)!.revision;
    // An update its schema refuses, written by a writer without inline read models (an older
    // version): the log holds it, the projector parks it.
    const writer = createPostgresEventStore({ connectionString: server.runtime.deps.config.DATABASE_URL! });
    try {
      await writer.append(
        stream,
        [
          {
            id: randomUUID(),
            type: 'CustomerUpdated',
            data: { customerId: created.body.id, name: 42 },
            metadata: {
              instanceId: shop.instance.id,
              actor: { kind: 'system', id: 'test', displayName: 'Test' },
              correlationId: randomUUID(),
              causationId: null,
              occurredAt: new Date().toISOString(),
              schemaVersion: 1,
            },
          },
        ],
        { expectedRevision: revision },
      );
    } finally {
      await writer.close();
    }
    await server.caughtUp();

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
