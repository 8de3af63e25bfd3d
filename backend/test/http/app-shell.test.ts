import { mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { appShell } from '../../src/http/app-shell.ts';

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

function write(file: string, html: string, secondsAgo: number) {
  writeFileSync(file, html);
  const when = new Date(Date.now() - secondsAgo * 1000);
  utimesSync(file, when, when);
}

test('a build while the server runs: the next page load gets the new shell, which names the new scripts', () => {
  dir = mkdtempSync(path.join(tmpdir(), 'crm-shell-'));
  const index = path.join(dir, 'index.html');
  write(index, '<script src="/assets/index-old.js"></script>', 60);
  const shell = appShell(index);
  expect(shell()).toContain('index-old.js');

  write(index, '<script src="/assets/index-new.js"></script>', 0);
  expect(shell()).toContain('index-new.js');

  // Mid-build the shell may be gone for a moment: the last one read is served.
  rmSync(index);
  expect(shell()).toContain('index-new.js');
});
