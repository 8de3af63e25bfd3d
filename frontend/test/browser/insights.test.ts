import type { Browser } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import type { TestServer } from '../../../backend/test/support/server.ts';
import { addUser, createShop, postOne, serverAndBrowserForFile, signedInPage, SLOW, snap, TEST_TIMEOUT } from './support.ts';
import { signInUser } from '../../../backend/test/support/server.ts';

// One server and one browser for the file; every test makes its own instance, records and browser context.
let server: TestServer;
let browser: Browser;

serverAndBrowserForFile((s, b) => ([server, browser] = [s, b]));

describe('insights', () => {
  test(
    'admins find Insights in the navigation; the figures show with charts and open the jobs behind them; other users get no link',
    async () => {
      const shop = await createShop(server, 'insightsui');
      const jobs = `/api/${shop.subdomain}/pipeline`;
      const paid = await postOne(shop.owner, jobs, { name: 'Paid Customer', part: 'Bumper', tech: 'Sam', quote: 400 });
      const open = await postOne(shop.owner, jobs, { name: 'Open Customer', part: 'Hood', tech: 'Kim', quote: 250 });
      for (const stage of ['Scheduled', 'Completed', 'Invoiced', 'Paid']) {
        const res = await shop.owner.patch(`${jobs}/${paid.id}/stage`, { stage });
        expect(res.status, res.text).toBe(200);
      }

      for (const [phone, colorScheme] of [
        [false, 'light'],
        [false, 'dark'],
        [true, 'light'],
        [true, 'dark'],
      ] as const) {
        const { page } = await signedInPage(browser, shop.owner, { phone, colorScheme });
        await page.goto(`/crm/${shop.subdomain}/dashboard`);
        await page.getByRole('link', { name: 'Insights' }).click();
        await page.waitForURL('**/insights');
        await expect.poll(() => page.getByTestId('conversion-rate').textContent(), { timeout: SLOW }).toBe('50%');
        await expect.poll(() => page.getByText('1 of 2 quoted jobs paid').count()).toBe(1);
        // Money reads as money, to the cent: revenue is what was invoiced (a job without lines counts its quote).
        await expect.poll(() => page.getByText(/^\$400\.00 invoiced in the period .*\$0\.00 collected/).count()).toBe(1);
        // The charts drew (recharts renders SVG bars).
        await expect.poll(() => page.locator('.recharts-bar-rectangle').count(), { timeout: SLOW }).toBeGreaterThan(0);
        // Every legend square is painted as its chart's bars are (same colour, same opacity), not darker.
        await expect
          .poll(() =>
            page.evaluate(() => {
              const paint = (element: Element) => {
                const style = getComputedStyle(element);
                return `${style.fill} ${style.fillOpacity} ${style.opacity}`;
              };
              // Only a chart whose every series drew bars (a series of zeros draws none) can be compared.
              return [...document.querySelectorAll('.recharts-wrapper')].flatMap((chart) => {
                const items = [...chart.querySelectorAll('.recharts-legend-item')];
                const drawn = [...chart.querySelectorAll('.recharts-bar')].filter((layer) =>
                  layer.querySelector('.recharts-bar-rectangle path'),
                );
                if (drawn.length !== items.length) return [];
                const bars = new Set(drawn.map((layer) => paint(layer.querySelector('.recharts-bar-rectangle path')!)));
                return items
                  .filter((item) => !bars.has(paint(item.querySelector('.recharts-legend-icon')!)))
                  .map((item) => item.textContent);
              });
            }),
          )
          .toEqual([]);
        await expect.poll(() => page.getByText('90th percentile').count()).toBeGreaterThan(0);
        await snap(page, `insights-${phone ? 'phone' : 'desktop'}-${colorScheme}`);
        if (phone || colorScheme === 'dark') continue;

        // A figure whose label says how many jobs it is does not say it again ('Sam: 1 completed', not '… (1)'),
        // and the charts' text for screen readers reads weeks as dates people read, never a raw 2026-11-23.
        await expect.poll(() => page.locator('summary', { hasText: /^Sam: / }).textContent()).toBe('Sam: 1 completed');
        await expect.poll(() => page.locator('summary', { hasText: /^Week of .*completed$/ }).count()).toBe(1);
        const chartTexts = await page
          .locator('[role="img"][aria-label*="Week of"]')
          .evaluateAll((charts) => charts.map((chart) => chart.getAttribute('aria-label') ?? ''));
        expect(chartTexts).toHaveLength(2);
        for (const text of chartTexts) {
          expect(text).toMatch(/^Week of [A-Z][a-z]{2} \d{1,2}, \d{4}: /);
          expect(text).not.toMatch(/\d{4}-\d\d-\d\d/);
        }

        // The jobs behind a figure open that job (its dialog), not a search that lists every job with that digit.
        await page.getByText('Paid jobs (1)').click();
        await page
          .getByRole('link', { name: `#${paid.jobNumber} · Paid Customer` })
          .first()
          .click();
        await page.waitForURL(`**/pipeline?job=${paid.id}`);
        await expect.poll(() => page.getByRole('dialog').getByLabel('Name').inputValue(), { timeout: SLOW }).toBe('Paid Customer');
        expect(open.id).toBeTruthy();
      }

      // A user who may not manage users has no Insights link, and the screen sends them home.
      await addUser(shop.owner, { username: 'writer', pin: '2222' });
      const writer = await signInUser(server, shop.subdomain, 'writer', '2222');
      const { page } = await signedInPage(browser, writer);
      await page.goto(`/crm/${shop.subdomain}/dashboard`);
      await expect.poll(() => page.getByRole('link', { name: 'Pipeline' }).count(), { timeout: SLOW }).toBeGreaterThan(0);
      await expect.poll(() => page.getByRole('link', { name: 'Insights' }).count()).toBe(0);
      expect((await writer.get(`/api/${shop.subdomain}/insights`)).status).toBe(403);
    },
    TEST_TIMEOUT,
  );

  test(
    "takings and insights name the period's days through the one date formatter, whatever the browser's zone",
    async () => {
      const shop = await createShop(server, 'daylabels');
      for (const options of [{}, { colorScheme: 'dark' as const }, { phone: true }]) {
        // A browser far from the shop: a day is the shop's day, never moved to a neighbour.
        const { page } = await signedInPage(browser, shop.owner, { ...options, timezoneId: 'Pacific/Kiritimati' });
        const suffix = `${options.colorScheme === 'dark' ? '-dark' : ''}${options.phone ? '-phone' : ''}`;
        await page.goto(`/crm/${shop.subdomain}/reports/takings?from=2026-12-04&to=2026-12-05`);
        await expect
          .poll(() => page.getByText(/in the shop's time/).textContent(), { timeout: SLOW })
          .toMatch(/^Fri, Dec 4, 2026 to Sat, Dec 5, 2026, in the shop's time/);
        await snap(page, `takings-days${suffix}`);
        await page.goto(`/crm/${shop.subdomain}/insights?from=2026-11-09&to=2026-12-05`);
        await expect
          .poll(() => page.getByText(/^From the shop's history/).textContent(), { timeout: SLOW })
          .toMatch(/^From the shop's history, Nov 9, 2026 – Dec 5, 2026 \(/);
        // The weekly charts name each week by its first day, the shop's Monday.
        await expect
          .poll(() => page.locator('[role="img"][aria-label^="Week of Nov 9, 2026: "]').count(), { timeout: SLOW })
          .toBeGreaterThan(0);
        await snap(page, `insights-days${suffix}`);
      }
    },
    TEST_TIMEOUT,
  );
});
