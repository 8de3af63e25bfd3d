/**
 * One rule for every e-mail address the API takes (a customer's, a service request's
 * contact, the shop's, the messages' From address): one plain address that a mail server
 * takes as it is and reads as one. A comma, semicolon, space, quote, bracket or a second @
 * would make it a list or a display name (`x,y@b.test` is two recipients to a mail library),
 * so the local part is a dot-atom of the characters RFC 5321 allows unquoted, at most 64 of
 * them, and the domain is dot-separated labels of letters, digits and inner hyphens, with at
 * least one dot. The same expression is the API document's `pattern`, so the document, the
 * screens and the server judge an address alike. Browser-safe.
 */
const ATOM = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+";
const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
export const EMAIL_PATTERN = `^(?=[^@]{1,64}@)${ATOM}(?:\\.${ATOM})*@${LABEL}(?:\\.${LABEL})+$`;
export const EMAIL_MAX = 254;

const EMAIL = new RegExp(EMAIL_PATTERN);

/** Whether `value` is one e-mail address by the rule above (no surrounding spaces, at most 254 characters). */
export function isEmailAddress(value: string): boolean {
  return value.length <= EMAIL_MAX && EMAIL.test(value);
}

/** How the API document states an address field: the format, and the rule as a pattern. */
export function emailDocument(maxLength: number) {
  return { type: 'string', format: 'email', pattern: EMAIL_PATTERN, maxLength: Math.min(maxLength, EMAIL_MAX) };
}
