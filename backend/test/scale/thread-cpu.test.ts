import { readFileSync, readlinkSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { namedThreadsCpuMs, threadCpuMs } from '../../src/bench/postgres-cpu.ts';
import { nameThisThread } from '../../src/infra/thread-name.ts';

// The bench counts the API's projector thread apart by the name the thread gives itself.
describe.skipIf(process.platform !== 'linux')('a thread named by nameThisThread is counted by namedThreadsCpuMs', () => {
  test('the named thread is found and counted as the thread itself; a name no thread bears counts nothing', () => {
    // "<pid>/task/<tid>": this very thread, whichever pool runs the test.
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    const original = readFileSync(`/proc/${process.pid}/task/${tid}/comm`, 'utf8').trim();
    try {
      nameThisThread('crm-test-thread-name-longer-than-fifteen');
      // Linux keeps 15 characters of a thread's name.
      expect(readFileSync(`/proc/${process.pid}/task/${tid}/comm`, 'utf8').trim()).toBe('crm-test-thread');
      // The thread's own counter read before and after: the named reading lies between them.
      const before = threadCpuMs(process.pid, tid);
      const named = namedThreadsCpuMs(process.pid, 'crm-test-thread');
      const after = threadCpuMs(process.pid, tid);
      expect(before).not.toBeNull();
      expect(named).toBeGreaterThanOrEqual(before!);
      expect(named).toBeLessThanOrEqual(after!);
      expect(namedThreadsCpuMs(process.pid, 'no-such-thread')).toBeNull();
    } finally {
      nameThisThread(original);
    }
  });
});
