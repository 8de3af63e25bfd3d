import { currentUserViewSchema } from '@crm/projections/contract';
import { describe, expect, test } from 'vitest';
import { instanceEntry, instanceFamilyOf, instanceLinks } from '../src/config/paths.ts';
import { ApiError } from '../src/lib/api-error.ts';
import {
  INVALID_CREDENTIALS_MESSAGE,
  LOGIN_FAILED_MESSAGE,
  loginErrorMessage,
} from '../src/features/identity/utils/login-error-message.ts';
import { redirectAfterLogin } from '../src/features/identity/utils/redirect-after-login.ts';
import { canManageUsers, nameOf } from '../src/features/identity/utils/user-access.ts';
import { PIN_MISMATCH_MESSAGE, validateChangePin } from '../src/features/identity/utils/validate-change-pin.ts';
import { validateLogin } from '../src/features/identity/utils/validate-login.ts';

describe('redirectAfterLogin', () => {
  test('from /maven to /maven/home', () => {
    expect(redirectAfterLogin('/maven', 'maven')).toBe('/maven/home');
    expect(redirectAfterLogin('/maven/login', 'maven')).toBe('/maven/home');
  });

  test('from a location containing /crm/ to the instance dashboard', () => {
    expect(redirectAfterLogin('/crm/speedy', 'speedy')).toBe('/crm/speedy/dashboard');
    expect(redirectAfterLogin('/crm/speedy/', 'speedy')).toBe('/crm/speedy/dashboard');
  });

  test('otherwise to /pipeline', () => {
    expect(redirectAfterLogin('/speedy/login', 'speedy')).toBe('/pipeline');
    expect(redirectAfterLogin('/login', 'speedy')).toBe('/pipeline');
    // /mavenish is not the /maven family.
    expect(redirectAfterLogin('/mavenish/login', 'mavenish')).toBe('/pipeline');
  });
});

describe('instance paths', () => {
  test('the family follows the path', () => {
    expect(instanceFamilyOf('/maven')).toBe('maven');
    expect(instanceFamilyOf('/maven/admin')).toBe('maven');
    expect(instanceFamilyOf('/mavens')).toBe('crm');
    expect(instanceFamilyOf('/crm/maven/admin')).toBe('crm');
  });

  test('canonical links live under /crm/{instance}', () => {
    expect(instanceLinks('speedy')).toEqual({
      entry: '/crm/speedy',
      home: '/crm/speedy/dashboard',
      pipeline: '/crm/speedy/pipeline',
      customers: '/crm/speedy/customers',
      newCustomer: '/crm/speedy/customers/new',
      calendar: '/crm/speedy/calendar',
      admin: '/crm/speedy/admin',
      audit: '/crm/speedy/admin/audit',
      serviceForm: '/crm/speedy/service-form',
      serviceList: '/crm/speedy/service-list',
      insights: '/crm/speedy/insights',
    });
  });

  test('the /maven family keeps its own pages and links to the canonical rest', () => {
    const links = instanceLinks('maven', 'maven');
    expect(links.entry).toBe('/maven');
    expect(links.home).toBe('/maven/home');
    expect(links.admin).toBe('/maven/admin');
    expect(links.newCustomer).toBe('/crm/maven/customers/new');
    expect(links.audit).toBe('/crm/maven/admin/audit');
    expect(links.serviceList).toBe('/maven/service-list');
    expect(links.insights).toBe('/maven/insights');
  });

  test('the entry is the instance login, or /crm without an instance', () => {
    expect(instanceEntry('speedy')).toBe('/crm/speedy');
    expect(instanceEntry(undefined)).toBe('/crm');
    expect(instanceEntry('maven', 'maven')).toBe('/maven');
  });
});

describe('validateLogin', () => {
  test('accepts a username of 3+ characters and a 4-digit PIN', () => {
    expect(validateLogin({ username: 'sam', pin: '0123' })).toEqual({});
  });

  test('both fields are required', () => {
    expect(validateLogin({ username: '  ', pin: '' })).toEqual({ username: 'Username is required', pin: 'PIN is required' });
  });

  test("the stricter schema's messages", () => {
    expect(validateLogin({ username: 'sa', pin: '12' })).toEqual({
      username: 'Username must be at least 3 characters',
      pin: 'PIN must be exactly 4 digits',
    });
    expect(validateLogin({ username: 'sam', pin: '12a4' }).pin).toBe('PIN must contain only digits');
  });
});

describe('loginErrorMessage', () => {
  test('401 is the generic refusal, whatever the server says', () => {
    expect(loginErrorMessage(new ApiError(401, 'Locked', { message: 'Locked' }))).toBe(INVALID_CREDENTIALS_MESSAGE);
  });

  test("throttling and refused input show the server's words", () => {
    const throttled = new ApiError(429, 'Too many attempts. Try again in a minute.', {
      message: 'Too many attempts. Try again in a minute.',
    });
    expect(loginErrorMessage(throttled)).toBe('Too many attempts. Try again in a minute.');
    expect(loginErrorMessage(new ApiError(400, 'Instance is required', { message: 'Instance is required' }))).toBe('Instance is required');
  });

  test("a closed CRM and a locked account show the server's words", () => {
    const closed = 'This CRM is closed. Contact your provider.';
    expect(loginErrorMessage(new ApiError(403, closed, { message: closed }))).toBe(closed);
    const locked = 'Too many failed sign-ins: this account is locked for 12 more minutes.';
    expect(loginErrorMessage(new ApiError(423, locked, { message: locked }))).toBe(locked);
  });

  test('anything else is "Login failed. Please try again."', () => {
    expect(loginErrorMessage(new TypeError('Failed to fetch'))).toBe(LOGIN_FAILED_MESSAGE);
    expect(loginErrorMessage(new ApiError(500, '500: Internal Server Error'))).toBe(LOGIN_FAILED_MESSAGE);
  });
});

describe('validateChangePin', () => {
  test('requires the current PIN and a valid new PIN typed twice', () => {
    expect(validateChangePin({ currentPin: '', newPin: '', confirmPin: '' })).toEqual({
      currentPin: 'Current PIN is required',
      newPin: 'New PIN is required',
    });
    expect(validateChangePin({ currentPin: '1234', newPin: '12x4', confirmPin: '12x4' })).toEqual({
      newPin: 'PIN must contain only digits',
    });
    expect(validateChangePin({ currentPin: '1234', newPin: '5678', confirmPin: '5679' })).toEqual({ confirmPin: PIN_MISMATCH_MESSAGE });
    expect(validateChangePin({ currentPin: '1234', newPin: '5678', confirmPin: '5678' })).toEqual({});
  });
});

describe('current user', () => {
  const raw = {
    id: 'u1',
    username: 'sam',
    displayName: '',
    role: 'user',
    permissions: { canRead: true, canWrite: true, canDelete: false, canManageUsers: false },
    instance: {
      id: 'i1',
      name: 'SPEEDY',
      subdomain: 'speedy',
      displayName: 'Speedy',
      features: { pipeline: true, customers: true, calendar: true, admin: true, serviceRequests: true },
      timeZone: 'America/Chicago',
    },
  };

  test('parses the server answer with the contract; features as a JSON string or a null name are refused', () => {
    const user = currentUserViewSchema.parse(raw);
    expect(user.displayName).toBe('');
    expect(user.instance.features).toEqual({ pipeline: true, customers: true, calendar: true, admin: true, serviceRequests: true });
    expect(currentUserViewSchema.safeParse({ ...raw, instance: { ...raw.instance, features: '{"calendar":true}' } }).success).toBe(false);
    expect(currentUserViewSchema.safeParse({ ...raw, displayName: null }).success).toBe(false);
  });

  test('the name is the display name, else the username', () => {
    expect(nameOf({ displayName: '', username: 'sam' })).toBe('sam');
    expect(nameOf({ displayName: 'Sam Speedy', username: 'sam' })).toBe('Sam Speedy');
  });

  test('admins, and users given canManageUsers, manage users', () => {
    const permissions = raw.permissions;
    expect(canManageUsers({ role: 'user', permissions })).toBe(false);
    expect(canManageUsers({ role: 'admin', permissions })).toBe(true);
    expect(canManageUsers({ role: 'user', permissions: { ...permissions, canManageUsers: true } })).toBe(true);
  });
});
