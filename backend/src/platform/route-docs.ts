import {
  appInfoSchema,
  createInstanceInput,
  crmInstanceListSchema,
  crmInstanceViewSchema,
  instanceHistorySchema,
  instanceStatsListSchema,
  parkedChangesQuery,
  parkedChangesSchema,
  parkedEventListSchema,
  publicRequestsSettingInput,
  publicRequestsSettingSchema,
  publicInstanceViewSchema,
  setInstanceActiveInput,
  superAdminLoginInput,
  superAdminViewSchema,
  updateInstanceInput,
} from '@crm/projections/contract';
import type { RouteDoc } from '../http/router.ts';

/** What the OpenAPI document says of each platform route. */
export const PLATFORM_DOCS = {
  appInfo: {
    summary: "The app's version, the provider's name and the host shops are reached at",
    tag: 'platform',
    response: appInfoSchema,
  },
  publicInstance: {
    summary: 'What a login page may know of an instance (404: no such CRM)',
    tag: 'platform',
    response: publicInstanceViewSchema,
  },
  superAdminLogin: {
    summary: 'Super admin sign-in (starts a session)',
    tag: 'platform',
    body: superAdminLoginInput,
    response: superAdminViewSchema,
    status: 200,
    answers: {
      401: 'Wrong username or password',
      423: 'Locked for a while after failed passwords (Retry-After)',
      429: 'Too many sign-ins from this address: wait (Retry-After)',
    },
  },
  superAdminCurrent: { summary: 'The signed-in super admin', tag: 'platform', response: superAdminViewSchema },
  superAdminLogout: { summary: 'Super admin sign-out (ends the session)', tag: 'platform', status: 204 },
  setActive: {
    summary: 'Open or close a CRM instance (a closed one ends its sessions)',
    tag: 'platform',
    body: setInstanceActiveInput,
    response: crmInstanceViewSchema,
  },
  show: { summary: 'One CRM instance (ETag: its revision)', tag: 'platform', response: crmInstanceViewSchema },
  update: {
    summary:
      "Change an instance's display name, description, time zone, features or public request page (If-Match: the revision the form loaded)",
    tag: 'platform',
    body: updateInstanceInput,
    response: crmInstanceViewSchema,
  },
  history: { summary: "An instance's changes, field by field, newest first", tag: 'platform', response: instanceHistorySchema },
  publicRequests: {
    summary: "Whether the shop's public request page (/{subdomain}/request) is on (instance admins)",
    tag: 'platform',
    response: publicRequestsSettingSchema,
  },
  setPublicRequests: {
    summary: "Switch the shop's public request page on or off (instance admins; recorded in the instance's history)",
    tag: 'platform',
    body: publicRequestsSettingInput,
    response: publicRequestsSettingSchema,
  },
  stats: {
    summary: "Each instance's users, jobs, customers and last activity (the provider dashboard)",
    tag: 'platform',
    response: instanceStatsListSchema,
  },
  parked: {
    summary: 'Events a projector could not handle and skipped (parked), every shop’s, newest first: each with its record, error and time',
    tag: 'platform',
    response: parkedEventListSchema,
  },
  shopParked: {
    summary: "This shop's parked events (changes the screens cannot show), newest first (instance admins)",
    tag: 'platform',
    response: parkedEventListSchema,
  },
  recordParked: {
    summary: 'Whether a record of this shop has changes that could not be shown (parked events), for a notice on it',
    tag: 'platform',
    query: parkedChangesQuery,
    response: parkedChangesSchema,
  },
  list: { summary: 'The CRM instances, the provider’s own included', tag: 'platform', response: crmInstanceListSchema },
  create: {
    summary: 'A new CRM instance with its first admin',
    tag: 'platform',
    body: createInstanceInput,
    response: crmInstanceViewSchema,
    status: 201,
  },
} satisfies Record<string, RouteDoc>;
