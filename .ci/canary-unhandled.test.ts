import { EventEmitter } from 'node:events';
import { expect, test } from 'vitest';

// CI runs this alone (CRM_TEST_CANARY=unhandled) and fails when the run exits 0, or when the
// summary at the end of the log does not name the error: proof that an error outside any test
// (here an 'error' event nobody listens for, as a pg.Pool emits when its idle connection is cut)
// turns the run red although every test passed, and that a tail of the log says what it was.
test('canary: a test that passes while an error event nobody listens for is emitted beside it', async () => {
  const emitter = new EventEmitter();
  await new Promise<void>((resolve) =>
    setTimeout(() => {
      setImmediate(resolve);
      emitter.emit('error', new Error('canary: an error event with no listener'));
    }),
  );
  expect('this test').toBe('this test');
});
