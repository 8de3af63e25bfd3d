import { manufacturerOf } from './wmi.ts';

/**
 * Vehicle identification numbers: the 17-character form used since 1981 (ISO 3779 /
 * 49 CFR 565), checked and decoded offline. Browser-safe: the screens check a VIN as it
 * is typed with the very rules the server refuses it by.
 *
 * Check digit (position 9): every 17-character VIN made for the North American market
 * carries one (49 CFR 565.15). VINs from elsewhere need not: their ninth character may be
 * anything. Rule here: a VIN whose manufacturer code is North American (first character
 * 1–5, or 7F–7Z) with a wrong check digit is refused; any other VIN with a wrong check
 * digit is accepted with a warning (`checkDigit: 'not-verified'`), since a European or
 * Asian-market VIN is commonly right without one.
 */

export const VIN_LENGTH = 17;

export const VIN_MESSAGES = {
  length: (length: number) => `VIN must be 17 characters (this one has ${length})`,
  letters: 'VIN cannot contain the letters I, O or Q (they read like 1 and 0)',
  characters: (chars: string) => `VIN can hold only letters and digits (not ${chars})`,
  checkDigit: (expected: string, found: string) =>
    `VIN check digit is wrong: the 9th character is ${found}, the rest of the VIN calls for ${expected}. Check the VIN for a typo.`,
  notVerified: 'Check digit not verified: this VIN is from outside North America, where the 9th character need not be a check digit.',
} as const;

/** Transliteration of letters to values (49 CFR 565.15 table); I, O and Q never occur. */
const VALUES: Record<string, number> = {
  A: 1,
  B: 2,
  C: 3,
  D: 4,
  E: 5,
  F: 6,
  G: 7,
  H: 8,
  J: 1,
  K: 2,
  L: 3,
  M: 4,
  N: 5,
  P: 7,
  R: 9,
  S: 2,
  T: 3,
  U: 4,
  V: 5,
  W: 6,
  X: 7,
  Y: 8,
  Z: 9,
};
for (let digit = 0; digit <= 9; digit++) VALUES[String(digit)] = digit;

const WEIGHTS = [8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2] as const;

/** Upper case, without the spaces and dashes people type or copy along. */
export function normalizeVin(value: string): string {
  return value.toUpperCase().replace(/[\s-]/g, '');
}

/** The check digit the other 16 characters call for ('0'–'9' or 'X'); null when a character has no value. */
export function vinCheckDigit(vin: string): string | null {
  let sum = 0;
  for (let i = 0; i < VIN_LENGTH; i++) {
    const value = VALUES[vin[i] ?? ''];
    if (value === undefined) return null;
    sum += value * WEIGHTS[i]!;
  }
  const remainder = sum % 11;
  return remainder === 10 ? 'X' : String(remainder);
}

/** Whether the VIN's manufacturer code is North American (US, Canada, Mexico). */
export function isNorthAmericanVin(vin: string): boolean {
  const first = vin[0] ?? '';
  if (first >= '1' && first <= '5') return true;
  // 7F–7Z were assigned to the United States when 1, 4 and 5 ran short (7A–7E: New Zealand).
  return first === '7' && /[F-Z]/.test(vin[1] ?? '');
}

/**
 * Model-year codes of position 10, in their 30-year cycle (1980–2009, then 2010–2039):
 * no I, O, Q, U, Z or 0.
 */
const YEAR_CODES = 'ABCDEFGHJKLMNPRSTVWXY123456789';

/**
 * The model year of position 10. Which cycle it is in comes from position 7: a letter
 * there means 2010 or later, a digit 2009 or earlier (the North American rule for cars
 * and light trucks; used for every VIN here, so a non-North-American VIN's year is a best
 * guess).
 */
export function vinModelYear(vin: string): number | null {
  const index = YEAR_CODES.indexOf(vin[9] ?? '');
  if (index < 0) return null;
  const later = /[A-Z]/.test(vin[6] ?? '');
  return (later ? 2010 : 1980) + index;
}

export interface VinDecoded {
  /** The model year position 10 (and 7) says; null when it holds no year code. */
  year: number | null;
  /** The make of the manufacturer code (first 3 characters), null when the table does not know it. */
  make: string | null;
  /** Where the manufacturer code is from (its first one or two characters). */
  country: string | null;
  /** 'valid': the check digit matches; 'not-verified': it does not, and the VIN is not North American (accepted). */
  checkDigit: 'valid' | 'not-verified';
}

export type VinCheck = { ok: true; vin: string; decoded: VinDecoded; warning: string | null } | { ok: false; message: string };

/** Checks a typed VIN (normalized first) and decodes it; the message names the problem. */
export function checkVin(value: string): VinCheck {
  const vin = normalizeVin(value);
  const invalid = [...new Set(vin.replace(/[A-Z0-9]/g, ''))].join(' ');
  if (invalid) return { ok: false, message: VIN_MESSAGES.characters(invalid) };
  if (/[IOQ]/.test(vin)) return { ok: false, message: VIN_MESSAGES.letters };
  if (vin.length !== VIN_LENGTH) return { ok: false, message: VIN_MESSAGES.length(vin.length) };
  const expected = vinCheckDigit(vin)!;
  const found = vin[8]!;
  let checkDigit: VinDecoded['checkDigit'] = 'valid';
  if (expected !== found) {
    if (isNorthAmericanVin(vin)) return { ok: false, message: VIN_MESSAGES.checkDigit(expected, found) };
    checkDigit = 'not-verified';
  }
  const decoded = { year: vinModelYear(vin), make: manufacturerOf(vin), country: vinCountry(vin), checkDigit };
  return { ok: true, vin, decoded, warning: checkDigit === 'valid' ? null : VIN_MESSAGES.notVerified };
}

/** Decodes a stored (already checked) VIN; null for none. */
export function decodeVin(vin: string): VinDecoded | null {
  if (!vin) return null;
  const check = checkVin(vin);
  return check.ok ? check.decoded : null;
}

/**
 * What a VIN decodes to, in words a person reads without knowing VINs: "model year 2003 ·
 * Honda · made in United States" (what it cannot tell is left out; '' when nothing).
 */
export function decodedVinText(decoded: Pick<VinDecoded, 'year' | 'make' | 'country'>): string {
  return [
    decoded.year === null ? '' : `model year ${decoded.year}`,
    decoded.make ?? '',
    decoded.country ? `made in ${decoded.country}` : '',
  ]
    .filter(Boolean)
    .join(' · ');
}

/**
 * When the model year typed on a vehicle differs from the one its VIN says (a typo in one or
 * the other): a sentence naming both, or null. Makes are not compared: shops write them short
 * ('VW', 'Chevy'), and both are shown side by side.
 */
export function vinYearDisagreement(typedYear: number | null, decoded: Pick<VinDecoded, 'year'>): string | null {
  if (typedYear === null || decoded.year === null || typedYear === decoded.year) return null;
  return `The VIN says model year ${decoded.year}, not ${typedYear}: check the year or the VIN.`;
}

/** Regions of the first character (ISO 3780), narrowed by the second where one code is shared. */
export function vinCountry(vin: string): string | null {
  const [first = '', second = ''] = vin;
  if ('145'.includes(first)) return 'United States';
  if (first === '2') return 'Canada';
  if (first === '3') return /[A-W]/.test(second) ? 'Mexico' : null;
  if (first === '7') return /[F-Z]/.test(second) ? 'United States' : 'New Zealand';
  const byFirst: Record<string, string> = {
    J: 'Japan',
    L: 'China',
    V: /[A-E]/.test(second) ? 'Austria' : /[F-R]/.test(second) ? 'France' : 'Spain',
    W: 'Germany',
    Z: 'Italy',
    '6': 'Australia',
    '9': 'Brazil',
  };
  if (byFirst[first]) return byFirst[first];
  if (first === 'K' && /[L-R]/.test(second)) return 'South Korea';
  if (first === 'S' && /[A-M]/.test(second)) return 'United Kingdom';
  if (first === 'T' && /[J-P]/.test(second)) return 'Czech Republic';
  if (first === 'T' && /[R-V]/.test(second)) return 'Hungary';
  if (first === 'Y' && /[S-W]/.test(second)) return 'Sweden';
  if (first === 'M' && /[A-E]/.test(second)) return 'India';
  if (first === 'M' && /[L-R]/.test(second)) return 'Thailand';
  if (first === 'N' && /[L-R]/.test(second)) return 'Turkey';
  if (first === 'X' && /[L-R]/.test(second)) return 'Netherlands';
  if (first === 'X' && /[S-W3-9]/.test(second)) return 'Russia';
  if (first === 'U' && /[U-Z1-7]/.test(second)) return 'Romania';
  return null;
}
