/**
 * SQL expressions that build, inside PostgreSQL, the JSON values the API's views hold, so a hot
 * read can send the JSON text PostgreSQL made instead of parsing rows, mapping them and
 * stringifying them again. Each gives what its JS counterpart gives, value for value (the
 * read tests compare the two).
 */

/** A timestamptz as Date#toISOString writes it: UTC, milliseconds (truncated, as a Date holds them), 'Z'. */
export function isoTimeSql(expression: string): string {
  return `to_char(${expression} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}

/** A phone as lists show it, its last 4 digits only ('•••-•••-1234'; '' without digits): maskPhone. */
export function maskedPhoneSql(expression: string): string {
  return `(SELECT CASE WHEN d = '' THEN '' ELSE '•••-•••-' || right(d, 4) END FROM (SELECT regexp_replace(${expression}, '[^0-9]', '', 'g') AS d) digits)`;
}
