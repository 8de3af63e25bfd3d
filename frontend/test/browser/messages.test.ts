import type { Browser } from 'playwright-core';
import { describe, expect, onTestFinished, test } from 'vitest';
import { startSmtpServer } from '../../../backend/test/messages/fakes.ts';
import { signInUser, type TestServer } from '../../../backend/test/support/server.ts';
import { addUser, createShop, ownServer, postOne, serverAndBrowserForFile, signedInPage, SLOW, snap, TEST_TIMEOUT } from './support.ts';

let server: TestServer;
let browser: Browser;

serverAndBrowserForFile((s, b) => ([server, browser] = [s, b]));

/** The shop's outbox: each message says what it is and to whom, and opens its job and customer. */
describe('messages', () => {
  test(
    "an appointment's confirmation is in the outbox, not sent (no provider here), and opens its job and its customer",
    async () => {
      const shop = await createShop(server, 'outbox');
      const api = `/api/${shop.subdomain}`;
      const customer = await postOne(shop.owner, `${api}/customers`, {
        name: 'Olive Outbox',
        email: 'olive@example.test',
        phone: '5550104455',
      });
      expect((await shop.owner.put(`${api}/customers/${customer.id}/consent`, { emailConsent: true, smsConsent: false })).status).toBe(200);
      const appointment = new Date(Date.now() + 5 * 24 * 3600_000);
      appointment.setUTCHours(15, 0, 0, 0);
      const job = await postOne(shop.owner, `${api}/pipeline`, {
        name: 'Olive Outbox',
        customerId: customer.id,
        part: 'Alignment',
        stage: 'Scheduled',
        appointment: appointment.toISOString(),
      });
      await expect
        .poll(async () => (await shop.owner.get(`${api}/messages?jobId=${job.id}`)).body.items.length, { timeout: SLOW })
        .toBeGreaterThan(0);

      const { page, context } = await signedInPage(browser, shop.owner);
      await page.goto(`/crm/${shop.subdomain}/messages`);
      const row = page.getByTestId('message-row').filter({ hasText: 'olive@example.test' }).filter({ hasText: 'Appointment confirmation' });
      await expect.poll(() => row.textContent(), { timeout: SLOW }).toContain('Not sent');
      // Why, in the staff's words: what happened and whom to ask, no server setting's name.
      await expect.poll(() => row.getByText('E-mail is not set up for this shop — ask your administrator').count()).toBe(1);
      await expect.poll(() => row.textContent()).not.toContain('SMTP');
      // No Retry while e-mail is not set up: it would only be recorded as not sent again.
      await expect.poll(() => row.getByRole('button', { name: 'Show message' }).count()).toBe(1);
      await expect.poll(() => row.getByRole('button', { name: 'Retry' }).count()).toBe(0);
      // The screen's notice says the same of both channels (this server has neither provider).
      const notice = page.getByText(/^E-mail and text messages are not set up for this shop — ask your administrator\./);
      await expect.poll(() => notice.count()).toBe(1);
      // What an unsent message would have said is introduced over its text, once it is shown.
      const asItWouldHaveGone = row.getByText('Not sent — shown as it would have gone');
      await expect.poll(() => asItWouldHaveGone.count()).toBe(0);
      await row.getByRole('button', { name: 'Show message' }).click();
      await expect.poll(() => asItWouldHaveGone.count()).toBe(1);
      await row.getByRole('button', { name: 'Hide message' }).click();
      // The reminder waits for the day before; it links to the same records.
      const reminder = page.getByTestId('message-row').filter({ hasText: 'Appointment reminder' });
      await expect.poll(() => reminder.getByRole('link', { name: 'Open the job' }).count(), { timeout: SLOW }).toBe(1);
      await snap(page, 'messages-outbox');

      await row.getByRole('link', { name: 'Open the job' }).click();
      await expect.poll(() => page.getByRole('dialog', { name: /Olive Outbox/ }).count(), { timeout: SLOW }).toBe(1);
      expect(new URL(page.url()).searchParams.get('job')).toBe(job.id);

      await page.goBack();
      await row.getByRole('link', { name: 'Open the customer' }).click();
      await expect.poll(() => page.url(), { timeout: SLOW }).toContain(`/customers/${customer.id}`);
      await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent(), { timeout: SLOW }).toContain('Olive Outbox');
      await context.close();
    },
    TEST_TIMEOUT,
  );

  test(
    "a message the SMTP server refused: staff read that the address was refused and what to do, an admin also the server's answer",
    async () => {
      const smtp = await startSmtpServer();
      onTestFinished(() => smtp.stop());
      smtp.rejected.add('gone@example.test');
      const own = await ownServer({ SMTP_URL: smtp.url, SMTP_FROM: 'crm@example.test' });
      const shop = await createShop(own, 'refused');
      const api = `/api/${shop.subdomain}`;
      await postOne(shop.owner, `${api}/service-requests`, { customerName: 'Gail Gone', contactEmail: 'gone@example.test' });
      await expect.poll(async () => (await shop.owner.get(`${api}/messages?status=failed`)).body.items.length, { timeout: SLOW }).toBe(1);
      const refused =
        'The e-mail provider refused the e-mail address gone@example.test: it may be mistyped or no longer in use — check it with the customer';

      await addUser(shop.owner, { username: 'clerk', pin: '2468' });
      const clerk = await signInUser(own, shop.subdomain, 'clerk', '2468');
      const asClerk = await signedInPage(browser, clerk);
      await asClerk.page.goto(`/crm/${shop.subdomain}/messages?status=failed`);
      const clerkRow = asClerk.page.getByTestId('message-row').filter({ hasText: 'gone@example.test' });
      await expect.poll(() => clerkRow.getByText(refused).count(), { timeout: SLOW }).toBe(1);
      await clerkRow.getByRole('button', { name: 'Show message' }).click();
      await expect.poll(() => clerkRow.textContent()).toContain('Hide message');
      await expect.poll(() => clerkRow.textContent()).not.toContain('550');
      await asClerk.context.close();

      const asOwner = await signedInPage(browser, shop.owner);
      await asOwner.page.goto(`/crm/${shop.subdomain}/messages?status=failed`);
      const ownerRow = asOwner.page.getByTestId('message-row').filter({ hasText: 'gone@example.test' });
      await expect.poll(() => ownerRow.getByText(refused).count(), { timeout: SLOW }).toBe(1);
      // The server's own answer is the admin's, under the message, not in the reason.
      await expect.poll(() => ownerRow.textContent()).not.toContain('550');
      await ownerRow.getByRole('button', { name: 'Show message' }).click();
      await expect.poll(() => ownerRow.getByText(/^Technical detail: SMTP 550: /).count()).toBe(1);
      // E-mail is set up here: a corrected address can be tried again.
      await expect.poll(() => ownerRow.getByRole('button', { name: 'Retry' }).count()).toBe(1);
      await snap(asOwner.page, 'messages-refused');
      await asOwner.context.close();
    },
    TEST_TIMEOUT,
  );

  test(
    "the templates' preview puts the text message's opt-out on a line of its own, not run into the shop's phone",
    async () => {
      const shop = await createShop(server, 'optout');
      const { page } = await signedInPage(browser, shop.owner);
      await page.goto(`/crm/${shop.subdomain}/messages/templates`);
      const preview = page.getByText(/Reply STOP to opt out\.$/);
      await expect.poll(() => preview.count(), { timeout: SLOW }).toBe(1);
      await expect.poll(() => preview.innerText()).toMatch(/\S\nReply STOP to opt out\.$/);
      // The reminder hour reads like every other time on the screens.
      const hour = page.getByLabel('Reminders go out the day before at');
      await expect.poll(() => hour.locator('option:checked').textContent()).toMatch(/^(1[0-2]|[1-9]):00 (AM|PM)$/);
      await expect.poll(() => hour.locator('option').first().textContent()).toBe('12:00 AM');
      // The way back to the messages, as other screens reached from a list have.
      await page.getByRole('navigation', { name: 'Back' }).getByRole('link', { name: 'Back to Messages' }).click();
      await expect.poll(() => new URL(page.url()).pathname, { timeout: SLOW }).toBe(`/crm/${shop.subdomain}/messages`);
    },
    TEST_TIMEOUT,
  );
  test(
    'on a phone the status filter wraps evenly: no filter left alone on a line, light and dark',
    async () => {
      const shop = await createShop(server, 'outboxphone');
      for (const colorScheme of ['light', 'dark'] as const) {
        const { page, context } = await signedInPage(browser, shop.owner, { colorScheme });
        onTestFinished(() => context.close());
        await page.setViewportSize({ width: 390, height: 844 });
        await page.goto(`/crm/${shop.subdomain}/messages`);
        const filters = page.getByRole('navigation', { name: 'Filter by status' }).getByRole('button');
        await expect.poll(() => filters.count(), { timeout: SLOW }).toBe(5);
        // How many filters share each line, top to bottom.
        const perLine = async () => {
          const tops = await filters.evaluateAll((buttons) => buttons.map((b) => Math.round(b.getBoundingClientRect().top)));
          const lines = new Map<number, number>();
          for (const top of tops) lines.set(top, (lines.get(top) ?? 0) + 1);
          return [...lines.values()];
        };
        await expect.poll(async () => Math.min(...(await perLine()))).toBeGreaterThan(1);
        await snap(page, `messages-filter-phone-${colorScheme}`);
      }
    },
    TEST_TIMEOUT,
  );
});
