/**
 * Waits `ms`, or less when the signal aborts; never rejects. The abort listener goes when
 * the timer fires: a loop that waits on one long-lived signal again and again (a standby
 * retrying its lock, a subscription reopened after drops) would otherwise pile one listener
 * per wait onto it (a leak, and Node's MaxListenersExceededWarning after ten).
 */
export function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const onAbort = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
