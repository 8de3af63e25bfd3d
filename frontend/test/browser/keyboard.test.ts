import type { Browser, Locator, Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import type { TestServer } from '../../../backend/test/support/server.ts';
import { createShop, serverAndBrowserForFile, signedInPage, SLOW, TEST_TIMEOUT } from './support.ts';

/**
 * Keyboard only: a job, a customer and an appointment are added, edited and deleted with Tab,
 * typing, Enter and Escape, and after every dialog saves or closes the focus is on what opened
 * it, on the new record, or (when that record is gone) on the screen's heading — never on the
 * page's <body>, where the next Tab would start from the top.
 */
let server: TestServer;
let browser: Browser;

serverAndBrowserForFile((s, b) => ([server, browser] = [s, b]));

const MAX_TABS = 120;

/** Presses Tab (Shift+Tab with `back`) until `target` has the focus. */
async function tabTo(page: Page, target: Locator, back = false): Promise<void> {
  await expect.poll(() => target.count(), { timeout: SLOW }).toBe(1);
  for (let presses = 0; presses < MAX_TABS; presses += 1) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`${MAX_TABS} Tabs did not reach ${target.toString()}; focus is on ${await focused(page)}`);
}

/** What has the focus, in words: its tag and accessible name or text. */
function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    const element = document.activeElement;
    if (!element || element === document.body) return 'body';
    const name = element.getAttribute('aria-label') ?? element.textContent ?? '';
    return `${element.tagName.toLowerCase()} ${name.trim().replace(/\s+/g, ' ')}`.trim();
  });
}

const isFocused = (target: Locator) => target.evaluate((element) => element === document.activeElement);

describe('keyboard only', () => {
  test(
    'a job: added from the pipeline, edited and deleted; focus comes back every time',
    async () => {
      const shop = await createShop(server, 'keys');
      const { page } = await signedInPage(browser, shop.owner);
      await page.goto(`/crm/${shop.subdomain}/pipeline?view=table`);
      await expect.poll(() => page.getByRole('heading', { level: 1 }).count(), { timeout: SLOW }).toBe(1);

      const add = page.getByRole('button', { name: 'Add New Entry' });
      await tabTo(page, add);
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog', { name: 'Add New Entry' });
      await expect.poll(() => dialog.count(), { timeout: SLOW }).toBe(1);
      await tabTo(page, dialog.getByLabel('Name', { exact: true }));
      await page.keyboard.type('Kim Keys');
      await tabTo(page, dialog.getByLabel('Part', { exact: true }));
      await page.keyboard.type('Brake pads');
      await tabTo(page, dialog.getByRole('button', { name: 'Add Entry' }));
      await page.keyboard.press('Enter');
      await expect.poll(() => dialog.count(), { timeout: SLOW }).toBe(0);
      await expect.poll(() => page.getByRole('row', { name: /Kim Keys/ }).count(), { timeout: SLOW }).toBe(1);
      // Back on the button that opened the dialog (or the new job's row).
      await expect.poll(() => focused(page), { timeout: SLOW }).toMatch(/Add New Entry|Kim Keys/);

      // Edit: the row's Edit button opens it; Save returns there.
      const edit = page.getByRole('button', { name: /^Edit .*Kim Keys/ });
      await tabTo(page, edit);
      await page.keyboard.press('Enter');
      const editing = page.getByRole('dialog');
      await expect.poll(() => editing.getByLabel('Part', { exact: true }).inputValue(), { timeout: SLOW }).toBe('Brake pads');
      await tabTo(page, editing.getByLabel('Part', { exact: true }));
      await page.keyboard.press('ControlOrMeta+A');
      await page.keyboard.type('Rotors');
      await tabTo(page, editing.getByRole('button', { name: 'Save Changes' }));
      await page.keyboard.press('Enter');
      await expect.poll(() => editing.count(), { timeout: SLOW }).toBe(0);
      await expect.poll(() => page.getByRole('row', { name: /Rotors/ }).count(), { timeout: SLOW }).toBe(1);
      await expect.poll(() => isFocused(page.getByRole('button', { name: /^Edit .*Kim Keys/ })), { timeout: SLOW }).toBe(true);

      // Escape closes an untouched dialog, and focus is back on its opener.
      // Escape goes in once the dialog shows the job: while the save's toast is open, a dialog
      // that has only just mounted is not yet the top layer, and the toast would take the key.
      await page.keyboard.press('Enter');
      await expect.poll(() => editing.getByLabel('Part', { exact: true }).inputValue(), { timeout: SLOW }).toBe('Rotors');
      await page.keyboard.press('Escape');
      await expect.poll(() => editing.count(), { timeout: SLOW }).toBe(0);
      await expect.poll(() => isFocused(page.getByRole('button', { name: /^Edit .*Kim Keys/ })), { timeout: SLOW }).toBe(true);

      // Delete: the row goes, and focus lands on the screen, not on <body>.
      await tabTo(page, page.getByRole('button', { name: /^Delete .*Kim Keys/ }));
      await page.keyboard.press('Enter');
      const confirm = page.getByRole('alertdialog').or(page.getByRole('dialog'));
      await expect.poll(() => confirm.count(), { timeout: SLOW }).toBe(1);
      await tabTo(page, confirm.getByRole('button', { name: /^Delete/ }));
      await page.keyboard.press('Enter');
      await expect.poll(() => page.getByRole('row', { name: /Kim Keys/ }).count(), { timeout: SLOW }).toBe(0);
      await expect.poll(() => focused(page), { timeout: SLOW }).not.toBe('body');
      await expect.poll(() => focused(page)).toMatch(/Pipeline|Add New Entry/);
    },
    TEST_TIMEOUT,
  );

  test(
    'a customer: added, edited on their page and deleted; focus comes back every time',
    async () => {
      const shop = await createShop(server, 'keys');
      const { page } = await signedInPage(browser, shop.owner);
      await page.goto(`/crm/${shop.subdomain}/customers`);
      await expect.poll(() => page.getByText('No customers yet.').count(), { timeout: SLOW }).toBe(1);

      const add = page.getByRole('button', { name: 'Add Customer' });
      await tabTo(page, add);
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog', { name: 'Add New Customer' });
      await expect.poll(() => dialog.count(), { timeout: SLOW }).toBe(1);
      await tabTo(page, dialog.getByLabel('Name', { exact: true }));
      await page.keyboard.type('Cora Keys');
      await tabTo(page, dialog.getByRole('button', { name: 'Create Customer' }));
      await page.keyboard.press('Enter');
      await expect.poll(() => dialog.count(), { timeout: SLOW }).toBe(0);
      await expect.poll(() => page.getByRole('link', { name: 'Cora Keys', exact: true }).count(), { timeout: SLOW }).toBe(1);
      await expect.poll(() => focused(page), { timeout: SLOW }).toMatch(/Add Customer|Cora Keys/);

      const edit = page.getByRole('button', { name: 'Edit Cora Keys' });
      await tabTo(page, edit);
      await page.keyboard.press('Enter');
      const editing = page.getByRole('dialog');
      await expect.poll(() => editing.getByLabel('Name', { exact: true }).inputValue(), { timeout: SLOW }).toBe('Cora Keys');
      await tabTo(page, editing.getByLabel('Phone', { exact: true }));
      await page.keyboard.type('5551230000');
      await tabTo(page, editing.getByRole('button', { name: /Save/ }));
      await page.keyboard.press('Enter');
      await expect.poll(() => editing.count(), { timeout: SLOW }).toBe(0);
      await expect.poll(() => page.getByText(/0000/).count(), { timeout: SLOW }).toBeGreaterThan(0);
      await expect.poll(() => isFocused(page.getByRole('button', { name: 'Edit Cora Keys' })), { timeout: SLOW }).toBe(true);

      await tabTo(page, page.getByRole('button', { name: 'Delete Cora Keys' }));
      await page.keyboard.press('Enter');
      const confirm = page.getByRole('alertdialog').or(page.getByRole('dialog'));
      await expect.poll(() => confirm.count(), { timeout: SLOW }).toBe(1);
      await tabTo(page, confirm.getByLabel(/to confirm/));
      await page.keyboard.type('DELETE');
      await tabTo(page, confirm.getByRole('button', { name: /^Delete/ }));
      await page.keyboard.press('Enter');
      await expect.poll(() => page.getByRole('link', { name: 'Cora Keys', exact: true }).count(), { timeout: SLOW }).toBe(0);
      await expect.poll(() => focused(page), { timeout: SLOW }).not.toBe('body');
      await expect.poll(() => focused(page)).toMatch(/Customers|Add Customer/);
    },
    TEST_TIMEOUT,
  );

  test(
    'an appointment: added from the calendar, opened from its event, edited, taken off the calendar; focus comes back every time',
    async () => {
      const shop = await createShop(server, 'keys', undefined, { features: { pipeline: true, customers: true, calendar: true } });
      const { page } = await signedInPage(browser, shop.owner);
      await page.goto(`/crm/${shop.subdomain}/calendar?view=week`);
      await expect.poll(() => page.getByRole('heading', { name: 'Calendar', level: 1 }).count(), { timeout: SLOW }).toBe(1);

      const add = page.getByRole('button', { name: 'New Appointment' });
      await tabTo(page, add);
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog');
      await expect.poll(() => dialog.count(), { timeout: SLOW }).toBe(1);
      await tabTo(page, dialog.getByLabel(/^Customer Name/));
      await page.keyboard.type('Abe Appointment');
      await tabTo(page, dialog.getByLabel(/^Phone/));
      await page.keyboard.type('5550001111');
      await tabTo(page, dialog.getByLabel(/^Part\/Service/));
      await page.keyboard.type('Tyres');
      await tabTo(page, dialog.getByRole('button', { name: 'Create Appointment' }));
      await page.keyboard.press('Enter');
      await expect.poll(() => dialog.count(), { timeout: SLOW }).toBe(0);
      const event = page.locator('.rbc-event', { hasText: 'Abe Appointment' });
      await expect.poll(() => event.count(), { timeout: SLOW }).toBe(1);
      await expect.poll(() => focused(page), { timeout: SLOW }).toMatch(/New Appointment|Abe Appointment/);

      // Its event takes the focus with Tab and opens with Enter; Escape returns to it.
      await tabTo(page, event);
      // As above: Escape once the dialog shows the appointment (the create's toast is still open).
      await page.keyboard.press('Enter');
      await expect.poll(() => dialog.getByLabel(/^Part\/Service/).inputValue(), { timeout: SLOW }).toBe('Tyres');
      await page.keyboard.press('Escape');
      await expect.poll(() => dialog.count(), { timeout: SLOW }).toBe(0);
      await expect.poll(() => isFocused(event), { timeout: SLOW }).toBe(true);

      // Edit: Save returns to the event, drawn anew with its new part.
      await page.keyboard.press('Enter');
      const part = dialog.getByLabel(/^Part\/Service/);
      await expect.poll(() => part.inputValue(), { timeout: SLOW }).toBe('Tyres');
      await tabTo(page, part);
      await page.keyboard.press('ControlOrMeta+A');
      await page.keyboard.type('Oil change');
      await tabTo(page, dialog.getByRole('button', { name: 'Save Changes' }));
      await page.keyboard.press('Enter');
      await expect.poll(() => dialog.count(), { timeout: SLOW }).toBe(0);
      await expect.poll(() => isFocused(page.locator('.rbc-event', { hasText: 'Abe Appointment' })), { timeout: SLOW }).toBe(true);

      // Taking the appointment off the calendar (the job stays in the pipeline): its box
      // emptied with Backspace. The event goes, and the focus lands on the screen.
      await page.keyboard.press('Enter');
      const when = dialog.getByLabel('Appointment Date & Time');
      await expect.poll(() => when.inputValue(), { timeout: SLOW }).not.toBe('');
      await tabTo(page, when);
      await page.keyboard.press('Backspace');
      await expect.poll(() => when.inputValue()).toBe('');
      await tabTo(page, dialog.getByRole('button', { name: 'Save Changes' }));
      await page.keyboard.press('Enter');
      await expect.poll(() => page.locator('.rbc-event', { hasText: 'Abe Appointment' }).count(), { timeout: SLOW }).toBe(0);
      await expect.poll(() => focused(page), { timeout: SLOW }).not.toBe('body');
      await expect.poll(() => focused(page)).toMatch(/Calendar|New Appointment/);
    },
    TEST_TIMEOUT,
  );
});
