import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { FILLED_TEXT_PATTERN, isBlankText } from '@crm/projections/shared';
import { ApiClient, createTestInstance, signInUser, startTestServer, type TestServer } from '../support/server.ts';

/** Text that passes trim() but shows nothing: a zero-width space, a word joiner, a direction mark, a soft hyphen, a Hangul filler, among spaces. */
const INVISIBLE = '\u200B \u2060\u00A0\u200E\u00AD\uFEFF\u3164';

describe('one rule for a blank name, label or title', () => {
  test('white space and characters that show nothing are blank; anything readable is not', () => {
    for (const text of ['', '   ', '\u00A0', '\u200B', INVISIBLE, '\u200D\uFE0F', '\u{E0020}'])
      expect(isBlankText(text), JSON.stringify(text)).toBe(true);
    for (const text of ['a', '\u200BBob', '7', '🚗', 'Ж', '-']) expect(isBlankText(text), text).toBe(false);
    expect(INVISIBLE.trim()).not.toBe('');
    // The API document states the same rule.
    expect(new RegExp(FILLED_TEXT_PATTERN, 'u').test(INVISIBLE)).toBe(false);
    expect(new RegExp(FILLED_TEXT_PATTERN, 'u').test(`${INVISIBLE}x`)).toBe(true);
  });
});

let server: TestServer;
let owner: ApiClient;
const base = '/api/blanktext';

beforeAll(async () => {
  server = await startTestServer();
  await createTestInstance(server, 'blanktext');
  owner = await signInUser(server, 'blanktext', 'owner', '1234');
});
afterAll(async () => {
  await server?.stop();
});

describe('a record named only by invisible characters is refused like a blank one (a 400, not a blank-looking record)', () => {
  test('customers, vehicles, jobs and service requests', async () => {
    const customer = await owner.post(`${base}/customers`, { name: INVISIBLE });
    expect(customer.status, customer.text).toBe(400);
    expect(customer.body.errors).toEqual([{ field: 'name', message: expect.stringMatching(/at least one/i) }]);

    const real = await owner.post(`${base}/customers`, { name: 'Vera Visible', vehicles: [INVISIBLE, 'Civic'] });
    expect(real.status, real.text).toBe(201);
    // A typed vehicle that shows nothing is no vehicle: no record of it.
    const records = (await owner.get(`${base}/customers/${real.body.id}/vehicles`)).body.items as Array<{ label: string }>;
    expect(records.map((v) => v.label)).toEqual(['Civic']);
    const blanked = await owner.put(`${base}/customers/${real.body.id}`, { name: INVISIBLE, vehicles: '' });
    expect(blanked.status, blanked.text).toBe(400);

    const vehicle = await owner.post(`${base}/customers/${real.body.id}/vehicles`, { make: '\u200B', model: '\u2060\u00A0' });
    expect(vehicle.status, vehicle.text).toBe(400);
    expect(vehicle.body.message).toMatch(/at least one of year, make, model, VIN or plate/);

    const job = await owner.post(`${base}/pipeline`, { name: INVISIBLE });
    expect(job.status, job.text).toBe(400);

    const request = await owner.post(`${base}/service-requests`, { customerName: INVISIBLE });
    expect(request.status, request.text).toBe(400);
  });

  test("a message template's subject or text that shows nothing is refused, as an empty one is", async () => {
    for (const template of [
      { kind: 'ready-for-pickup', subject: INVISIBLE.replace(' ', ''), emailBody: 'x', smsBody: 'y' },
      { kind: 'ready-for-pickup', subject: 'Ready', emailBody: INVISIBLE, smsBody: 'y' },
      { kind: 'ready-for-pickup', subject: 'Ready', emailBody: 'x', smsBody: `\u200B${INVISIBLE}` },
    ]) {
      const refused = await owner.put(`${base}/message-templates`, { templates: [template] });
      expect(refused.status, refused.text).toBe(400);
      expect(refused.body.detail).toMatch(/must not be empty/);
    }
    const saved = await owner.put(`${base}/message-templates`, {
      templates: [{ kind: 'ready-for-pickup', subject: 'Ready', emailBody: `${INVISIBLE}x`, smsBody: 'y' }],
    });
    expect(saved.status, saved.text).toBe(200);
  });
});
