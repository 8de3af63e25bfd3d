import { describe, expect, test } from 'vitest';
import { eventStoreMigrations, readModelMigrations } from '../src/db/migrate.ts';

/**
 * Migrations run ordered by name and their names are recorded in every database, so two with
 * one number run in an order nobody chose. A new migration takes a number of its own. These
 * shared a number before the rule and are applied everywhere: renaming them would run them again.
 */
const APPLIED_BEFORE_THE_RULE: Record<string, string[]> = {
  public: ['0006_idempotency_keys', '0006_public_request_hits', '0006_rate_limits'],
  rm: ['0011_instance_settings', '0011_service_requests'],
};

function sharedNumbers(names: string[]): string[] {
  const byNumber = new Map<string, string[]>();
  for (const name of names) {
    const number = /^(\d{4})_/.exec(name)?.[1] ?? name;
    byNumber.set(number, [...(byNumber.get(number) ?? []), name]);
  }
  return [...byNumber.values()].filter((group) => group.length > 1).flat();
}

describe('migration numbers', () => {
  test('every migration is named with a four-digit number and a name', () => {
    const names = [...Object.keys(eventStoreMigrations), ...readModelMigrations.map((m) => m.name)];
    expect(names.filter((name) => !/^\d{4}_[a-z0-9_]+$/.test(name))).toEqual([]);
  });

  test('no two event-store migrations share a number, but for those applied before the rule', () => {
    expect(sharedNumbers(Object.keys(eventStoreMigrations)).sort()).toEqual(APPLIED_BEFORE_THE_RULE.public);
  });

  test('no two read-model migrations share a number across the slices, but for those applied before the rule', () => {
    expect(sharedNumbers(readModelMigrations.map((m) => m.name)).sort()).toEqual(APPLIED_BEFORE_THE_RULE.rm);
  });
});
