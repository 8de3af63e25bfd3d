import { DEFAULT_FEATURES } from '@crm/projections/platform';
import { describe, expect, test } from 'vitest';
import {
  EMPTY_CREATE_INSTANCE_FORM,
  effectiveSubdomain,
  NAME_REQUIRED_MESSAGE,
  validateCreateInstance,
  validateCreateInstanceForm,
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

describe('validateCreateInstanceForm (create page)', () => {
  const form = { ...EMPTY_CREATE_INSTANCE_FORM, ...admin };

  test('the subdomain comes from the business name when empty, and the name is it upper-cased', () => {
    const result = validateCreateInstanceForm({ ...form, businessName: "Rita's Rides 2" }, 'page');
    expect(result.ok).toBe(true);
    if (result.ok) {
      expect(result.value.subdomain).toBe('ritasrides2');
      expect(result.value.name).toBe('RITASRIDES2');
      expect(result.value.displayName).toBe("Rita's Rides 2");
    }
  });

  test('a typed subdomain wins and is normalised; a typed display name is kept', () => {
    const result = validateCreateInstanceForm(
      { ...form, businessName: 'Acme', subdomain: 'Acme-Auto 1', displayName: 'Acme Auto' },
      'page',
    );
    expect(result.ok && [result.value.subdomain, result.value.name, result.value.displayName]).toEqual([
      'acmeauto1',
      'ACMEAUTO1',
      'Acme Auto',
    ]);
  });

  test('features default to calendar off and are sent as chosen', () => {
    expect(EMPTY_CREATE_INSTANCE_FORM.features).toEqual({
      pipeline: true,
      customers: true,
      calendar: false,
      admin: true,
      serviceRequests: true,
    });
    const features = { pipeline: false, customers: true, calendar: true, admin: true, serviceRequests: true };
    const result = validateCreateInstanceForm({ ...form, businessName: 'Acme', features }, 'page');
    expect(result.ok && result.value.features).toEqual(features);
  });

  test('business name is required; a name with no usable characters needs a subdomain', () => {
    expect(validateCreateInstanceForm({ ...form, businessName: '  ' }, 'page')).toMatchObject({ ok: false, firstField: 'businessName' });
    expect(validateCreateInstanceForm({ ...form, businessName: '!!!' }, 'page')).toMatchObject({
      ok: false,
      firstField: 'subdomain',
      errors: { subdomain: 'Subdomain must contain only lowercase letters and numbers' },
    });
  });

  test('admin errors are keyed by the page fields', () => {
    expect(validateCreateInstanceForm({ ...form, businessName: 'Acme', adminPin: '12' }, 'page')).toMatchObject({
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

describe('validateCreateInstanceForm (the dialog, the same form and validator)', () => {
  const form = { ...EMPTY_CREATE_INSTANCE_FORM, ...admin };

  test('sends the name as typed with the subdomain derived from it, and default features', () => {
    const result = validateCreateInstanceForm({ ...form, businessName: ' Bobs Brakes ', displayName: "Bob's Brakes" }, 'dialog');
    expect(result.ok && [result.value.name, result.value.subdomain, result.value.displayName, result.value.features]).toEqual([
      'Bobs Brakes',
      'bobsbrakes',
      "Bob's Brakes",
      DEFAULT_FEATURES,
    ]);
  });

  test('asks for the name and the display name, keyed by the form fields', () => {
    expect(validateCreateInstanceForm({ ...form, businessName: 'Acme' }, 'dialog')).toMatchObject({
      ok: false,
      errors: { displayName: NAME_REQUIRED_MESSAGE },
    });
    expect(validateCreateInstanceForm({ ...form, displayName: 'Acme' }, 'dialog')).toMatchObject({
      ok: false,
      firstField: 'businessName',
      errors: { businessName: NAME_REQUIRED_MESSAGE },
    });
  });
});

describe('sanitizePin', () => {
  test('keeps up to four digits', () => {
    expect(sanitizePin('12a3')).toBe('123');
    expect(sanitizePin(' 98 765 ')).toBe('9876');
    expect(sanitizePin('')).toBe('');
  });
});
