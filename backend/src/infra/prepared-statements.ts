import { createHash } from 'node:crypto';

/** Texts given a prepared statement's name; past it, a text runs unnamed (see preparedStatementName). */
const PREPARED_TEXTS_LIMIT = 64;
const preparedNames = new Map<string, string>();

/**
 * The name a hot read's fixed text is prepared under on each connection that runs it: the
 * connection parses it once, and PostgreSQL plans it once for all its values when that plan
 * costs no more than planning each call (its plan cache decides after five calls). A long
 * statement such as the audit page's spent about a fifth of its time in PostgreSQL being
 * parsed and planned on every call. The name is the text's hash, so one text has one name in
 * every process and a text is never run under another's name. A connection keeps every
 * statement it prepared until it closes, so only a few fixed texts may be prepared: a caller
 * whose text carries a filter's conditions runs it unnamed, and past PREPARED_TEXTS_LIMIT
 * distinct texts in a process none gets a name (undefined: run it unnamed).
 */
export function preparedStatementName(text: string): string | undefined {
  const known = preparedNames.get(text);
  if (known !== undefined || preparedNames.size >= PREPARED_TEXTS_LIMIT) return known;
  const name = `crm_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
  preparedNames.set(text, name);
  return name;
}
