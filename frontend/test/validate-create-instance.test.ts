import { DEFAULT_FEATURES } from '@crm/projections/platform';
import { describe, expect, test } from 'vitest';
import {
  EMPTY_CRM_BUILDER_FORM,
  effectiveSubdomain,
  NAME_REQUIRED_MESSAGE,
  validateCreateInstance,
  validateCrmBuilderForm,
} from '../src/features/platform/utils/validate-create-instance.ts';
import { sanitizePin } from '../src/lib/sanitize-pin.ts';

const admin = { adminUsername: 'bob', adminDisplayName: 'Bob', adminPin: '1234' };

describe('validateCreateInstance (dialog)', () => {
  test('blank name or display name after trimming gives the dialog message', () => {
    for (const [name, displayName] of [
      ['   ', 'Acme'],
      ['Acme', '\t'],
      ['', ''],
    ]) {
      const result = validateCreateInstance({ name: name!, displayName: displayName!, description: '', ...admin });
      expect(result.ok).toBe(false);
      if (!result.ok) {
        expect(Object.values(result.errors)).toContain(NAME_REQUIRED_MESSAGE);
        expect(['name', 'displayName']).toContain(result.firstField);
      }
    }
  });

  test('reports the first admin with the shared schema messages', () => {
    const result = validateCreateInstance({ name: 'Acme', displayName: 'Acme', description: '', adminUsername: 'bo', adminPin: '12a4' });
    expect(result).toMatchObject({
      ok: false,
      firstField: 'adminUsername',
      errors: { adminUsername: 'Username must be at least 3 characters', adminPin: 'PIN must contain only digits' },
    });
  });

  test('a valid payload is trimmed, gets the derived subdomain and default features', () => {
    const result = validateCreateInstance({ name: ' Bobs Brakes ', displayName: " Bob's Brakes ", description: ' Brakes ', ...admin });
    expect(result).toEqual({
      ok: true,
      value: {
        name: 'Bobs Brakes',
        displayName: "Bob's Brakes",
        description: 'Brakes',
        subdomain: 'bobsbrakes',
        features: DEFAULT_FEATURES,
        adminUsername: 'bob',
        adminDisplayName: 'Bob',
        adminPin: '1234',
      },
    });
  });
});

describe('validateCrmBuilderForm (create page)', () => {
  const form = { ...EMPTY_CRM_BUILDER_FORM, ...admin };

  test('the subdomain comes from the business name when empty, and the name is it upper-cased', () => {
    const result = validateCrmBuilderForm({ ...form, businessName: "Rita's Rides 2" });
    expect(result.ok).toBe(true);
    if (result.ok) {
      expect(result.value.subdomain).toBe('ritasrides2');
      expect(result.value.name).toBe('RITASRIDES2');
      expect(result.value.displayName).toBe("Rita's Rides 2");
    }
  });

  test('a typed subdomain wins and is normalised; a typed display name is kept', () => {
    const result = validateCrmBuilderForm({ ...form, businessName: 'Acme', subdomain: 'Acme-Auto 1', displayName: 'Acme Auto' });
    expect(result.ok && [result.value.subdomain, result.value.name, result.value.displayName]).toEqual([
      'acmeauto1',
      'ACMEAUTO1',
      'Acme Auto',
    ]);
  });

  test('features default to calendar off and are sent as chosen', () => {
    expect(EMPTY_CRM_BUILDER_FORM.features).toEqual({ pipeline: true, customers: true, calendar: false, admin: true });
    const features = { pipeline: false, customers: true, calendar: true, admin: true };
    const result = validateCrmBuilderForm({ ...form, businessName: 'Acme', features });
    expect(result.ok && result.value.features).toEqual(features);
  });

  test('business name is required; a name with no usable characters needs a subdomain', () => {
    expect(validateCrmBuilderForm({ ...form, businessName: '  ' })).toMatchObject({ ok: false, firstField: 'businessName' });
    expect(validateCrmBuilderForm({ ...form, businessName: '!!!' })).toMatchObject({
      ok: false,
      firstField: 'subdomain',
      errors: { subdomain: 'Subdomain must contain only lowercase letters and numbers' },
    });
  });

  test('admin errors are keyed by the page fields', () => {
    expect(validateCrmBuilderForm({ ...form, businessName: 'Acme', adminPin: '12' })).toMatchObject({
      ok: false,
      firstField: 'adminPin',
      errors: { adminPin: 'PIN must be exactly 4 digits' },
    });
  });

  test('effectiveSubdomain', () => {
    expect(effectiveSubdomain({ businessName: 'Joe’s Garage', subdomain: '' })).toBe('joesgarage');
    expect(effectiveSubdomain({ businessName: 'Joe', subdomain: 'JOE-2' })).toBe('joe2');
  });
});

describe('sanitizePin', () => {
  test('keeps up to four digits', () => {
    expect(sanitizePin('12a3')).toBe('123');
    expect(sanitizePin(' 98 765 ')).toBe('9876');
    expect(sanitizePin('')).toBe('');
  });
});
