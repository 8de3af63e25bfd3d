import { expect, test } from 'vitest';
import { createTestDatabase } from '../projections/src/testing/database.ts';

// CI runs this alone, through the same vitest config and global setup as the real suite,
// and fails when the run exits 0: proof that a red test turns the run red.
test('canary: a deliberately failing test', async () => {
  const db = await createTestDatabase();
  await db.drop();
  expect('this test').toBe('failing on purpose');
});
