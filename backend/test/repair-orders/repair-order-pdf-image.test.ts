import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ApiClient, createTestInstance, signInUser, startTestServer, type TestServer } from '../support/server.ts';

/**
 * The estimate and invoice PDFs looked at as images (poppler's pdftoppm), besides their text
 * (pdftotext): the first page is drawn, with ink where the header and the lines are.
 */

let server: TestServer;
let admin: ApiClient;
let anonymous: ApiClient;
const P = '/api/pdfshop/pipeline';
const dir = mkdtempSync(path.join(tmpdir(), 'ro-pdf-image-'));

beforeAll(async () => {
  server = await startTestServer();
  await createTestInstance(server, 'pdfshop');
  admin = await signInUser(server, 'pdfshop', 'owner', '1234');
  anonymous = new ApiClient(server.url);
  const settings = await admin.put('/api/pdfshop/settings', {
    shopName: 'Pixel Garage',
    address: '9 Ink Road',
    phone: '555-0199',
    laborRate: '100',
    partsTaxRate: '10',
    terms: 'Payment due on pickup.',
  });
  expect(settings.status, settings.text).toBe(200);
});
afterAll(async () => {
  await server?.stop();
});

interface Gray {
  width: number;
  height: number;
  pixels: Buffer;
}

/** A binary PGM (P5, 8-bit) as pdftoppm -gray writes it. */
function readPgm(file: string): Gray {
  const data = readFileSync(file);
  const fields: string[] = [];
  let at = 0;
  while (fields.length < 4) {
    while (/\s/.test(String.fromCharCode(data[at]!))) at++;
    let field = '';
    while (!/\s/.test(String.fromCharCode(data[at]!))) field += String.fromCharCode(data[at++]!);
    fields.push(field);
  }
  at++;
  expect(fields[0]).toBe('P5');
  expect(fields[3]).toBe('255');
  const [width, height] = [Number(fields[1]), Number(fields[2])];
  return { width, height, pixels: data.subarray(at, at + width * height) };
}

/** The share of pixels darker than near-white in rows [from, to) of the page (fractions of its height). */
function ink(page: Gray, from: number, to: number): number {
  const [first, last] = [Math.floor(page.height * from), Math.floor(page.height * to)];
  let dark = 0;
  for (let y = first; y < last; y++) for (let x = 0; x < page.width; x++) if (page.pixels[y * page.width + x]! < 200) dark++;
  return dark / ((last - first) * page.width);
}

async function pdfOf(url: string, name: string): Promise<{ file: string; page: Gray; text: string }> {
  const res = await fetch(`${server.url}${url}`, { headers: { cookie: admin.cookieHeader() } });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/pdf');
  const file = path.join(dir, `${name}.pdf`);
  writeFileSync(file, Buffer.from(await res.arrayBuffer()));
  execFileSync('pdftoppm', ['-gray', '-r', '50', '-f', '1', '-l', '1', file, path.join(dir, name)]);
  const image = readdirSync(dir).find((entry) => entry.startsWith(`${name}-`) && entry.endsWith('.pgm'));
  expect(image, 'pdftoppm drew the first page').toBeDefined();
  const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
  return { file, page: readPgm(path.join(dir, image!)), text };
}

describe('estimate and invoice PDFs as images', () => {
  test('the first page has ink in the header and the lines, and reads back', async () => {
    const created = await admin.post(P, { name: 'Penny Pixel', makeModel: '2017 Toyota Prius' });
    expect(created.status).toBe(201);
    const id = created.body.id as string;
    const lines = [
      { kind: 'part', description: 'Hybrid battery cooling fan', partNumber: 'HB-7', quantity: '1', unitPrice: '189.00' },
      { kind: 'labor', description: 'Replace cooling fan', hours: '1.5' },
      { kind: 'fee', description: 'Shop supplies', amount: '9.50' },
    ];
    let job = created.body;
    for (const line of lines) {
      const res = await admin.post(`${P}/${id}/lines`, line);
      expect(res.status, res.text).toBe(201);
      job = res.body;
    }
    const sent = await admin.post(`${P}/${id}/estimate/send`, {});
    expect(sent.status).toBe(201);
    const decided = await anonymous.post(`/api/public/estimates/${sent.body.token}/decision`, {
      approvedLineIds: job.lines.map((line: { id: string }) => line.id),
      declinedLineIds: [],
      name: 'Penny Pixel',
    });
    expect(decided.status, decided.text).toBe(200);
    expect((await admin.post(`${P}/${id}/invoice`, {})).status).toBe(201);

    for (const kind of ['estimate', 'invoice'] as const) {
      const { page, text } = await pdfOf(`${P}/${id}/${kind}.pdf`, kind);
      // A page of paper at 50 dpi (Letter or A4), portrait.
      expect(page.width).toBeGreaterThan(380);
      expect(page.height).toBeGreaterThan(page.width);
      // The header and the lines (the top 60 %) carry text and rules; a blank or all-black page fails.
      const top = ink(page, 0, 0.6);
      expect(top, `${kind}: ink in the header and lines`).toBeGreaterThan(0.005);
      expect(top, `${kind}: not a dark page`).toBeLessThan(0.5);
      // The header alone (the top 15 %) has the shop's name and address drawn.
      expect(ink(page, 0, 0.15), `${kind}: ink in the header`).toBeGreaterThan(0.002);
      expect(text).toContain('Pixel Garage');
      expect(text).toContain('Hybrid battery cooling fan');
      expect(text).toContain('Penny Pixel');
    }
  });
});
