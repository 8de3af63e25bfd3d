/**
 * The one rule for a blank name, label or title. `trim()` takes white space (non-breaking
 * spaces included) but leaves the characters that show nothing either: zero-width spaces and
 * joiners, direction marks and other format characters, soft hyphens, variation selectors,
 * the Hangul fillers (Unicode's default-ignorable code points). A text of those alone would
 * make a record that looks blank, so it counts as blank. Browser-safe.
 */
const INVISIBLE = '\\s\\p{Default_Ignorable_Code_Point}';

/**
 * A text with something to read in it, as the API document states it (a JSON Schema
 * pattern, ECMAScript with the `u` flag): one character that is neither.
 */
export const FILLED_TEXT_PATTERN = `[^${INVISIBLE}]`;

const FILLED_TEXT = new RegExp(FILLED_TEXT_PATTERN, 'u');

/** True when the text has nothing to read: absent, empty, or only white space and characters that show nothing. */
export function isBlankText(text: string | null | undefined): boolean {
  return !text || !FILLED_TEXT.test(text);
}
