import type { CurrentUserView } from '@crm/projections/identity';
import { describe, expect, test } from 'vitest';
import { instanceHomePath, instanceLinks, registerPath, signInPath } from '../src/config/paths.ts';
import type { UserSession } from '../src/features/identity/states/user-session-state.ts';
import { canDelete, canWrite } from '../src/features/identity/utils/user-access.ts';
import { crmEntryTarget, staffBackLink } from '../src/features/identity/utils/staff-links.ts';
import { publicOrigin, shopAddresses } from '../src/features/platform/utils/shop-addresses.ts';
import { gettingStartedTips, quickActions } from '../src/features/instance-shell/utils/dashboard-items.ts';
import { navItems } from '../src/features/instance-shell/utils/nav-items.ts';
import { ApiError } from '../src/lib/api-error.ts';
import { isExpectedFailure } from '../src/lib/report-failure.ts';

const features = { pipeline: true, customers: true, calendar: false, admin: true, serviceRequests: true };

function user(subdomain: string, overrides: Partial<CurrentUserView> = {}): CurrentUserView {
  return {
    id: 'u1',
    username: 'sam',
    displayName: 'Sam',
    role: 'user',
    permissions: { canRead: true, canWrite: true, canDelete: false, canManageUsers: false },
    instance: { id: 'i1', name: subdomain.toUpperCase(), subdomain, displayName: `${subdomain} Auto`, features, timeZone: 'UTC' },
    ...overrides,
  };
}

const signedIn = (subdomain: string): UserSession => ({ status: 'signed-in', user: user(subdomain) });

describe('staff never land on the provider pages', () => {
  test('paths of an instance by slug: the provider instance in its own family', () => {
    expect(signInPath('speedy')).toBe('/crm/speedy');
    expect(signInPath('maven')).toBe('/maven');
    expect(instanceHomePath('speedy')).toBe('/crm/speedy/dashboard');
    expect(instanceHomePath('maven')).toBe('/maven/home');
    expect(registerPath('speedy')).toBe('/register?instance=speedy');
    expect(registerPath()).toBe('/register');
  });

  test('/register leads a signed-in staff member to their dashboard', () => {
    expect(staffBackLink({ session: signedIn('speedy'), superAdminSignedIn: false })).toEqual({
      to: '/crm/speedy/dashboard',
      label: 'Back to Dashboard',
    });
    expect(staffBackLink({ session: signedIn('speedy'), named: 'speedy', superAdminSignedIn: true })?.to).toBe('/crm/speedy/dashboard');
  });

  test('/register leads back to the sign-in of the instance named, or the one last used', () => {
    expect(staffBackLink({ session: { status: 'signed-out' }, named: 'speedy', superAdminSignedIn: false })).toEqual({
      to: '/crm/speedy',
      label: 'Back to Sign In',
    });
    expect(staffBackLink({ session: { status: 'signed-out', instance: 'maven' }, superAdminSignedIn: false })?.to).toBe('/maven');
    // Named another instance than the session's: that one's sign-in.
    expect(staffBackLink({ session: signedIn('speedy'), named: 'otherco', superAdminSignedIn: false })?.to).toBe('/crm/otherco');
  });

  test('only the super admin goes to /, and nobody known gets no link', () => {
    expect(staffBackLink({ session: { status: 'signed-out' }, superAdminSignedIn: true })).toEqual({ to: '/', label: 'Back to Home' });
    expect(staffBackLink({ session: { status: 'signed-out' }, superAdminSignedIn: false })).toBeNull();
    expect(staffBackLink({ session: { status: 'unknown' }, superAdminSignedIn: false })).toBeNull();
  });

  test('/crm (and /login): the staff dashboard, the last instance sign-in, else /', () => {
    expect(crmEntryTarget({ status: 'unknown' })).toBeNull();
    expect(crmEntryTarget(signedIn('speedy'))).toBe('/crm/speedy/dashboard');
    expect(crmEntryTarget(signedIn('maven'))).toBe('/maven/home');
    expect(crmEntryTarget({ status: 'signed-out', instance: 'speedy' })).toBe('/crm/speedy');
    expect(crmEntryTarget({ status: 'signed-out' })).toBe('/');
  });
});

describe("a shop's address", () => {
  test('is on the app origin, at the routes the app serves', () => {
    expect(shopAddresses('http://localhost:3000', 'speedy')).toEqual({
      short: 'http://localhost:3000/speedy',
      signIn: 'http://localhost:3000/crm/speedy',
    });
    expect(shopAddresses('https://crm.example.com/', 'joes')).toEqual({
      short: 'https://crm.example.com/joes',
      signIn: 'https://crm.example.com/crm/joes',
    });
  });

  test('uses the configured public host with the page protocol, else the page origin', () => {
    const page = { protocol: 'https:', origin: 'https://10.0.0.5:3000' };
    expect(publicOrigin(page, 'crm.example.com')).toBe('https://crm.example.com');
    expect(publicOrigin(page, undefined)).toBe('https://10.0.0.5:3000');
  });
});

describe('the admin feature does not take user management away', () => {
  const links = instanceLinks('s');
  test('user managers keep a link to user management: "Users" when the feature is off', () => {
    const off = { ...features, admin: false };
    expect(navItems({ links, family: 'crm', features: off, showAdmin: true }).at(-1)).toEqual({ label: 'Users', to: '/crm/s/admin' });
    expect(navItems({ links, family: 'crm', features, showAdmin: true }).at(-1)).toEqual({ label: 'Admin', to: '/crm/s/admin' });
    expect(navItems({ links, family: 'crm', features: off, showAdmin: false }).map((item) => item.label)).not.toContain('Users');
  });
});

describe('the dashboard offers only what the user and the instance can do', () => {
  const links = instanceLinks('s');
  test('no quick actions for a user who cannot write', () => {
    expect(quickActions({ links, features, canWrite: false })).toBeNull();
    expect(quickActions({ links, features, canWrite: true })?.map((action) => action.label)).toEqual([
      'Add New Customer',
      'Create Pipeline Entry',
    ]);
    // It opens the new entry dialog, not only the pipeline.
    expect(quickActions({ links, features, canWrite: true })?.find((a) => a.label === 'Create Pipeline Entry')?.to).toBe(
      '/crm/s/pipeline?new=1',
    );
    expect(quickActions({ links, features: { ...features, calendar: true }, canWrite: true })?.map((a) => a.label)).toContain(
      'Schedule Appointment',
    );
  });

  test('getting started: tips for enabled features only, the staff tip for user managers', () => {
    const titles = (f: typeof features, showAdmin: boolean) => gettingStartedTips({ features: f, showAdmin }).map((tip) => tip.title);
    expect(titles(features, false)).toEqual(['Pipeline', 'Customers']);
    expect(titles({ ...features, calendar: true }, true)).toEqual(['Pipeline', 'Customers', 'Calendar', 'Admin']);
    expect(titles({ pipeline: false, customers: true, calendar: false, admin: false, serviceRequests: false }, true)).toEqual([
      'Customers',
      'Users',
    ]);
    expect(titles({ pipeline: false, customers: false, calendar: false, admin: false, serviceRequests: false }, false)).toEqual([]);
  });

  test('getting started for a read-only user: what to look up, never to add or drag', () => {
    const texts = gettingStartedTips({ features: { ...features, calendar: true }, showAdmin: false, canWrite: false }).map(
      (tip) => tip.text,
    );
    expect(texts).toHaveLength(3);
    for (const text of texts) expect(text).not.toMatch(/\b(add|save|drag|give)\b/i);
  });

  test('write and delete follow the server: role admin has every permission', () => {
    const readOnly = { canRead: true, canWrite: false, canDelete: false, canManageUsers: false };
    expect(canWrite({ role: 'user', permissions: readOnly })).toBe(false);
    expect(canWrite({ role: 'admin', permissions: readOnly })).toBe(true);
    expect(canDelete({ role: 'user', permissions: { ...readOnly, canDelete: true } })).toBe(true);
    expect(canDelete({ role: 'admin', permissions: readOnly })).toBe(true);
  });
});

describe('expected outcomes are not console errors', () => {
  test('aborted requests and 4xx answers are expected; 5xx, network errors and bugs are not', () => {
    expect(isExpectedFailure(new DOMException('The operation was aborted.', 'AbortError'))).toBe(true);
    expect(isExpectedFailure(new ApiError(401, 'Invalid username or PIN'))).toBe(true);
    expect(isExpectedFailure(new ApiError(409, 'Changed meanwhile'))).toBe(true);
    expect(isExpectedFailure(new ApiError(423, 'Locked'))).toBe(true);
    expect(isExpectedFailure(new ApiError(500, 'boom'))).toBe(false);
    expect(isExpectedFailure(new TypeError('Failed to fetch'))).toBe(false);
    expect(isExpectedFailure(new Error('bug'))).toBe(false);
  });
});

describe('lockout after failed sign-ins', () => {
  test('a lockout counts only while it lasts, and reads as the time it ends', async () => {
    const { lockedOutText, lockedOutUntil } = await import('../src/features/identity/utils/lockout.ts');
    const now = new Date('2026-01-01T12:00:00Z');
    expect(lockedOutUntil({ signInLockedUntil: null }, now)).toBeNull();
    expect(lockedOutUntil({ signInLockedUntil: '2026-01-01T11:59:00Z' }, now)).toBeNull();
    const until = lockedOutUntil({ signInLockedUntil: '2026-01-01T12:10:00Z' }, now);
    expect(until?.toISOString()).toBe('2026-01-01T12:10:00.000Z');
    expect(lockedOutText(until!)).toMatch(/^Locked out until \d{1,2}:10/);
  });
});
