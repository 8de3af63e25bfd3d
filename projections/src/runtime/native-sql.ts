import type { Knex } from 'knex';
import type { NativeStatement } from './pipelined-transaction.ts';

/**
 * A statement in knex's raw form (`??` identifiers, `?` values) turned into `$n` form, as
 * `trx.raw(sql, bindings).toSQL().toNative()` does, without building a knex Raw object per
 * statement: a command's row statements have a handful of fixed texts, so where the
 * placeholders are is worked out once per text, and the text with its identifiers written
 * in once per text and identifiers. Anything the fast path does not cover (an escaped `\?`,
 * a value that is itself a knex query or raw, an identifier that is not a plain name, an
 * undefined value, a wrong count) goes through knex, which gives the same answer or the same error.
 */
export function toNativeStatement(knex: Knex | Knex.Transaction, sql: string, bindings: readonly Knex.RawBinding[]): NativeStatement {
  const template = templateOf(sql);
  if (template && template.kinds.length === bindings.length) {
    const values: unknown[] = [];
    let key = '';
    let plain = true;
    for (const [i, kind] of template.kinds.entries()) {
      const value = bindings[i];
      if (kind === IDENTIFIER) {
        if (typeof value !== 'string' || !PLAIN_NAME.test(value)) {
          plain = false;
          break;
        }
        key += `${value}\u0000`;
      } else {
        if (value === undefined || isKnexStatement(value)) {
          plain = false;
          break;
        }
        values.push(value);
      }
    }
    if (plain) {
      let text = template.texts.get(key);
      if (text === undefined) {
        text = render(template, bindings);
        if (template.texts.size >= MAX_TEXTS_PER_TEMPLATE) template.texts.clear();
        template.texts.set(key, text);
      }
      return { sql: text, values };
    }
  }
  const native = knex
    .raw(sql, bindings as Knex.RawBinding[])
    .toSQL()
    .toNative();
  return { sql: native.sql, values: native.bindings };
}

const IDENTIFIER = 0;
const VALUE = 1;

/** A name knex would only quote: no dot (schema.table), no ` as `, no array accessor. */
const PLAIN_NAME = /^[^."*[\]\s]+$/;

interface Template {
  /** The text between placeholders (one more than the placeholders). */
  parts: string[];
  kinds: Array<typeof IDENTIFIER | typeof VALUE>;
  /** The `$n` text by its identifiers (joined). */
  texts: Map<string, string>;
}

/** Texts remembered; statements whose text varies with their data would otherwise grow this without end. */
const MAX_TEMPLATES = 1000;
const MAX_TEXTS_PER_TEMPLATE = 16;
const templates = new Map<string, Template | null>();

function templateOf(sql: string): Template | null {
  let template = templates.get(sql);
  if (template !== undefined) return template;
  // knex's raw reads `\?` as a literal question mark; such texts are left to knex.
  if (sql.includes('\\?')) template = null;
  else {
    const parts: string[] = [];
    const kinds: Template['kinds'] = [];
    let from = 0;
    for (const match of sql.matchAll(/\?\??/g)) {
      parts.push(sql.slice(from, match.index));
      kinds.push(match[0] === '??' ? IDENTIFIER : VALUE);
      from = match.index + match[0].length;
    }
    parts.push(sql.slice(from));
    template = { parts, kinds, texts: new Map() };
  }
  if (templates.size >= MAX_TEMPLATES) templates.clear();
  templates.set(sql, template);
  return template;
}

function render(template: Template, bindings: readonly Knex.RawBinding[]): string {
  let text = template.parts[0]!;
  let position = 0;
  for (const [i, kind] of template.kinds.entries()) {
    text += kind === IDENTIFIER ? `"${String(bindings[i])}"` : `$${++position}`;
    text += template.parts[i + 1]!;
  }
  return text;
}

function isKnexStatement(value: unknown): boolean {
  return typeof value === 'object' && value !== null && 'toSQL' in value;
}
