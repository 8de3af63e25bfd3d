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

/** What String#trim strips: JavaScript's white space and line terminators. */
const JS_WHITE_SPACE =
  "E'\\t\\n\\u000B\\f\\r \\u00A0\\u1680\\u2000\\u2001\\u2002\\u2003\\u2004\\u2005\\u2006\\u2007\\u2008\\u2009\\u200A\\u2028\\u2029\\u202F\\u205F\\u3000\\uFEFF'";

/** A comma-separated text's trimmed, non-empty items as rows (item, i), i its place: parseList without options. */
export function listItemsSql(expression: string): string {
  return `SELECT item, i FROM (SELECT btrim(part, ${JS_WHITE_SPACE}) AS item, i
      FROM unnest(string_to_array(${expression}, ',')) WITH ORDINALITY AS parts(part, i)) items WHERE item <> ''`;
}

/** A phone as lists show it, its last 4 digits only ('•••-•••-1234'; '' without digits): maskPhone. */
export function maskedPhoneSql(expression: string): string {
  return `(SELECT CASE WHEN d = '' THEN '' ELSE '•••-•••-' || right(d, 4) END FROM (SELECT regexp_replace(${expression}, '[^0-9]', '', 'g') AS d) digits)`;
}
