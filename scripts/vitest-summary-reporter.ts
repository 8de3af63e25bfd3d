import type { Reporter, TestModule } from 'vitest/node';

/** At most this many failures are named in the summary; the rest are counted. */
const NAMED_AT_MOST = 10;

interface ErrorLike {
  name?: unknown;
  message?: unknown;
  stack?: unknown;
  type?: unknown;
  VITEST_TEST_PATH?: unknown;
  VITEST_TEST_NAME?: unknown;
}

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/** The first line of an error's message (a pg error's can run to many), kept short. */
function headline(error: ErrorLike): string {
  const name = text(error.name) ?? 'Error';
  const message = (text(error.message) ?? String(error)).split('\n')[0]!;
  return `${name}: ${message.length > 200 ? `${message.slice(0, 200)}…` : message}`;
}

/** The first stack frame that is not Node's or a dependency's: where the error came from. */
function origin(error: ErrorLike): string | undefined {
  const frames = (text(error.stack) ?? '').split('\n').filter((line) => line.trimStart().startsWith('at '));
  const own = frames.find((frame) => !frame.includes('node:') && !frame.includes('node_modules')) ?? frames[0];
  return own?.trim();
}

/**
 * An error outside any test (an 'error' event nobody listened for, a rejected promise nobody
 * awaited): its kind and message, the file and test running when it came, and where it was thrown.
 */
function describeUnhandledError(error: unknown, root = process.cwd()): string[] {
  const e: ErrorLike = typeof error === 'object' && error !== null ? (error as ErrorLike) : { message: String(error) };
  const file = text(e.VITEST_TEST_PATH);
  const test = text(e.VITEST_TEST_NAME);
  const where = [file && `in ${file.startsWith(`${root}/`) ? file.slice(root.length + 1) : file}`, test && `during or after "${test}"`]
    .filter(Boolean)
    .join(', ');
  const from = origin(e);
  return [`${text(e.type) ?? 'Unhandled error'}: ${headline(e)}`, ...(where ? [`  ${where}`] : []), ...(from ? [`  ${from}`] : [])];
}

/**
 * Ends the run with one plain line, `N passed, N failed, N skipped`, for CI to read. Above it,
 * what failed (tests, files, suites' hooks) and each error outside any test, a few lines each:
 * CI hands back only the tail of the log, and that tail must say what went wrong.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    const counts = { passed: 0, failed: 0, skipped: 0 };
    const failures: string[] = [];
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') counts.passed++;
        else if (state === 'failed') {
          counts.failed++;
          failures.push(`${module.relativeModuleId} > ${test.fullName}: ${headline(test.result().errors?.[0] ?? {})}`);
        } else counts.skipped++;
      }
      // A file that could not be loaded or collected, or a hook that failed, has no test to
      // count: it fails as one.
      for (const [where, errors] of [
        [module.relativeModuleId, module.errors()],
        ...[...module.children.allSuites()].map((suite) => [`${module.relativeModuleId} > ${suite.fullName}`, suite.errors()] as const),
      ] as const) {
        if (errors.length === 0) continue;
        counts.failed++;
        failures.push(`${where}: ${headline(errors[0]!)}`);
      }
    }
    // An error outside any test fails the run; count it so the line never reads green.
    counts.failed += unhandledErrors.length;
    const lines: string[] = [];
    if (failures.length > 0) {
      lines.push(`Failed (${failures.length}):`, ...failures.slice(0, NAMED_AT_MOST).map((failure) => `  ${failure}`));
      if (failures.length > NAMED_AT_MOST) lines.push(`  … and ${failures.length - NAMED_AT_MOST} more (see above)`);
    }
    if (unhandledErrors.length > 0) {
      lines.push(`Unhandled errors (${unhandledErrors.length}), each failing the run:`);
      for (const error of unhandledErrors.slice(0, NAMED_AT_MOST)) lines.push(...describeUnhandledError(error).map((line) => `  ${line}`));
      if (unhandledErrors.length > NAMED_AT_MOST) lines.push(`  … and ${unhandledErrors.length - NAMED_AT_MOST} more (see above)`);
    }
    console.log(
      `\n${lines.length > 0 ? `${lines.join('\n')}\n` : ''}${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`,
    );
  }
}
