const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids in paths and cursors are untrusted: anything that is not a UUID names nothing (and must not reach a uuid column). */
export function isUuid(value: string | undefined): value is string {
  return value !== undefined && UUID.test(value);
}
