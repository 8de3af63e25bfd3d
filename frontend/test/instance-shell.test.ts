import { recentActivitySchema } from '@crm/projections/contract';
import { describe, expect, test } from 'vitest';
import { instanceLinks } from '../src/config/paths.ts';
import { greetingFor, msUntilNextHour } from '../src/features/instance-shell/utils/greeting.ts';
import { navItems, navItemState, whereAdminsAddStaff } from '../src/features/instance-shell/utils/nav-items.ts';
import { formatRelativeTime } from '../src/features/instance-shell/utils/relative-time.ts';

const at = (hours: number, minutes = 0, seconds = 0) => new Date(2025, 5, 15, hours, minutes, seconds);

describe('greetingFor', () => {
  test('morning from 05:00 to 11:59', () => {
    expect(greetingFor(at(5))).toBe('Good morning');
    expect(greetingFor(at(11, 59, 59))).toBe('Good morning');
  });

  test('afternoon from 12:00 to 17:59', () => {
    expect(greetingFor(at(12))).toBe('Good afternoon');
    expect(greetingFor(at(17, 59, 59))).toBe('Good afternoon');
  });

  test('evening otherwise, through the night', () => {
    expect(greetingFor(at(18))).toBe('Good evening');
    expect(greetingFor(at(23, 30))).toBe('Good evening');
    expect(greetingFor(at(0))).toBe('Good evening');
    expect(greetingFor(at(4, 59, 59))).toBe('Good evening');
  });

  test('the greeting is looked at again at the next full hour', () => {
    expect(msUntilNextHour(at(11, 59, 0))).toBe(60_000);
    expect(msUntilNextHour(at(11, 0, 0))).toBe(3_600_000);
    expect(msUntilNextHour(at(23, 30, 0))).toBe(30 * 60_000);
  });
});

describe('navItems', () => {
  const all = { pipeline: true, customers: true, calendar: true, admin: true, serviceRequests: true };

  test('Home, Pipeline, Customers, Calendar, Service Requests, and Admin for admins', () => {
    const links = instanceLinks('speedy');
    expect(navItems({ links, family: 'crm', features: all, showAdmin: true }).map((item) => item.label)).toEqual([
      'Home',
      'Pipeline',
      'Customers',
      'Calendar',
      'Service Requests',
      'Admin',
    ]);
    expect(navItems({ links, family: 'crm', features: all, showAdmin: false }).map((item) => item.label)).not.toContain('Admin');
  });

  test("the register page's help names user management as the navigation does, with the Admin feature on or off", () => {
    const links = instanceLinks('speedy');
    const adminLink = (admin: boolean) => navItems({ links, family: 'crm', features: { ...all, admin }, showAdmin: true }).at(-1)?.label;
    expect(adminLink(true)).toBe('Admin');
    expect(adminLink(false)).toBe('Users');
    expect(whereAdminsAddStaff).toBe("Admin (Users when the CRM's Admin feature is off)");
    expect(whereAdminsAddStaff).not.toContain('User Management');
  });

  test('the /maven family has the same screens at its own addresses; features that are off are left out', () => {
    expect(navItems({ links: instanceLinks('maven', 'maven'), family: 'maven', features: all, showAdmin: true })).toEqual([
      { label: 'Home', to: '/maven/home' },
      { label: 'Pipeline', to: '/maven/pipeline' },
      { label: 'Customers', to: '/maven/customers' },
      { label: 'Calendar', to: '/maven/calendar' },
      { label: 'Service Requests', to: '/maven/service-list' },
      { label: 'Admin', to: '/maven/admin' },
    ]);
    const labels = navItems({
      links: instanceLinks('s'),
      family: 'crm',
      features: { ...all, calendar: false, serviceRequests: false },
      showAdmin: true,
    }).map((item) => item.label);
    expect(labels).toEqual(['Home', 'Pipeline', 'Customers', 'Admin']);
  });

  test('the current page is inert; pages below an item mark its section', () => {
    const customers = { label: 'Customers', to: '/crm/s/customers' };
    expect(navItemState(customers, '/crm/s/customers')).toBe('page');
    expect(navItemState(customers, '/crm/s/customers/')).toBe('page');
    expect(navItemState(customers, '/crm/s/customers/new')).toBe('section');
    expect(navItemState(customers, '/crm/s/customersx')).toBeNull();
  });
});

describe('recent activity', () => {
  test('reads { items } of audit entries, as the server answers; a bare list or a partial entry is refused', () => {
    const item = {
      id: 'e1',
      occurredAt: '2025-06-15T10:00:00Z',
      actor: { kind: 'user', id: 'u1', displayName: 'Sam' },
      entityType: 'job',
      entityId: 'j1',
      eventType: 'JobCreated',
      summary: 'Created job #1',
      changes: [],
    };
    expect(recentActivitySchema.parse({ items: [item] })).toEqual({ items: [item] });
    expect(recentActivitySchema.safeParse([item]).success).toBe(false);
    const partial = { summary: 'Created job #1', actor: null, occurredAt: '2025-06-15T10:00:00Z' };
    expect(recentActivitySchema.safeParse({ items: [partial] }).success).toBe(false);
  });

  test('says when, relative to now', () => {
    const now = at(12);
    expect(formatRelativeTime(at(11, 59, 50), now, 'en')).toBe('just now');
    expect(formatRelativeTime(at(11, 55), now, 'en')).toBe('5 minutes ago');
    expect(formatRelativeTime(at(9), now, 'en')).toBe('3 hours ago');
    expect(formatRelativeTime(new Date(2025, 5, 14, 12), now, 'en')).toBe('yesterday');
  });
});
