import { writeFileSync } from 'node:fs';

/**
 * The operating system's name of the projector's worker thread in an API process (Linux
 * keeps at most 15 characters). Every thread of a Node process is called `node`; with its
 * own name the thread shows apart in `top -H` and `ps -L`, and the benchmark counts its CPU
 * apart from the main thread's and from V8's helper threads.
 */
export const PROJECTOR_THREAD_NAME = 'crm-projector';

/** Names the calling thread (Linux: its `comm`); elsewhere, or when /proc is not there, nothing changes. */
export function nameThisThread(name: string): void {
  try {
    writeFileSync('/proc/thread-self/comm', name.slice(0, 15));
  } catch {
    // Not Linux, or /proc not mounted: the name only helps to tell the threads apart.
  }
}
