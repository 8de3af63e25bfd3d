import { RESERVED_INSTANCE_SUBDOMAIN } from '@crm/projections/platform';

/** Paths of the platform screens. Instance routes live under /crm/{instance}. */

const instanceBase = (subdomain: string) => `/crm/${encodeURIComponent(subdomain)}`;

export const paths = {
  home: '/',
  superAdminLogin: '/super-admin-login',
  crmSelection: '/crm-selection',
  crmBuilder: '/crm-builder',
  crmTemplate: '/crm',
  legacyLogin: '/login',
  /** The instance entry (its login page). */
  instance: instanceBase,
  instanceDashboard: (subdomain: string) => `${instanceBase(subdomain)}/dashboard`,
  instancePipeline: (subdomain: string) => `${instanceBase(subdomain)}/pipeline`,
  instanceCalendar: (subdomain: string) => `${instanceBase(subdomain)}/calendar`,
  instanceCustomers: (subdomain: string) => `${instanceBase(subdomain)}/customers`,
  instanceNewCustomer: (subdomain: string) => `${instanceBase(subdomain)}/customers/new`,
  instanceEditCustomer: (subdomain: string, id: string | number) =>
    `${instanceBase(subdomain)}/customers/${encodeURIComponent(String(id))}/edit`,
  instanceAdmin: (subdomain: string) => `${instanceBase(subdomain)}/admin`,
  /** The shop's settings (labor and tax rates, documents): admins change them, managers read them. */
  instanceShopSettings: (subdomain: string) => `${instanceBase(subdomain)}/admin/shop`,
  instanceAudit: (subdomain: string) => `${instanceBase(subdomain)}/admin/audit`,
  instanceServiceForm: (subdomain: string) => `${instanceBase(subdomain)}/service-form`,
  instanceServiceList: (subdomain: string) => `${instanceBase(subdomain)}/service-list`,
  /** The provider's own instance: entry and pages. */
  maven: '/maven',
  mavenHome: '/maven/home',
  mavenPipeline: '/maven/pipeline',
  mavenCustomers: '/maven/customers',
  mavenCalendar: '/maven/calendar',
  mavenAdmin: '/maven/admin',
  mavenServiceForm: '/maven/service-form',
  mavenServiceList: '/maven/service-list',
  mavenInsights: '/maven/insights',
  /** Instance login by subdomain. */
  subdomainLogin: (subdomain: string) => `/${encodeURIComponent(subdomain)}/login`,
  editService: (id: string | number) => `/edit-service/${encodeURIComponent(String(id))}`,
  /** A shop's public request page (no sign-in; only when the shop turned it on). */
  publicRequest: (subdomain: string) => `/${encodeURIComponent(subdomain)}/request`,
  profile: '/profile',
  settings: '/settings',
  register: '/register',
} as const;

/** Which route family a page belongs to: /crm/{instance}/… or the provider's own /maven/…. */
export type InstanceFamily = 'crm' | 'maven';

export function instanceFamilyOf(pathname: string): InstanceFamily {
  return pathname === paths.maven || pathname.startsWith(`${paths.maven}/`) ? 'maven' : 'crm';
}

/** Where an instance's screens are, in the family the visitor is using. */
export interface InstanceLinks {
  entry: string;
  home: string;
  pipeline: string;
  customers: string;
  newCustomer: string;
  calendar: string;
  admin: string;
  audit: string;
  serviceForm: string;
  serviceList: string;
  insights: string;
}

export function instanceLinks(subdomain: string, family: InstanceFamily = 'crm'): InstanceLinks {
  const canonical: InstanceLinks = {
    entry: paths.instance(subdomain),
    home: paths.instanceDashboard(subdomain),
    pipeline: paths.instancePipeline(subdomain),
    customers: paths.instanceCustomers(subdomain),
    newCustomer: paths.instanceNewCustomer(subdomain),
    calendar: paths.instanceCalendar(subdomain),
    admin: paths.instanceAdmin(subdomain),
    audit: paths.instanceAudit(subdomain),
    serviceForm: paths.instanceServiceForm(subdomain),
    serviceList: paths.instanceServiceList(subdomain),
    insights: `${instanceBase(subdomain)}/insights`,
  };
  if (family !== 'maven') return canonical;
  // The /maven family has its own addresses for the day-to-day screens; the customer forms and the
  // audit log stay canonical.
  return {
    ...canonical,
    entry: paths.maven,
    home: paths.mavenHome,
    pipeline: paths.mavenPipeline,
    customers: paths.mavenCustomers,
    calendar: paths.mavenCalendar,
    admin: paths.mavenAdmin,
    serviceForm: paths.mavenServiceForm,
    serviceList: paths.mavenServiceList,
    insights: paths.mavenInsights,
  };
}

/** The sign-in page for an instance, or /crm when no instance is known. */
export function instanceEntry(subdomain: string | undefined, family: InstanceFamily = 'crm'): string {
  if (family === 'maven') return paths.maven;
  return subdomain ? paths.instance(subdomain) : paths.crmTemplate;
}

/** The sign-in page of an instance by its slug: the provider's own at /maven, any other at /crm/{slug}. */
export function signInPath(subdomain: string): string {
  return subdomain === RESERVED_INSTANCE_SUBDOMAIN ? paths.maven : paths.instance(subdomain);
}

/** The home (dashboard) of an instance by its slug, in the family its sign-in page belongs to. */
export function instanceHomePath(subdomain: string): string {
  return instanceLinks(subdomain, subdomain === RESERVED_INSTANCE_SUBDOMAIN ? 'maven' : 'crm').home;
}

/** /register, naming the instance the visitor came from (its page links back to that sign-in). */
export function registerPath(subdomain?: string): string {
  return subdomain ? `${paths.register}?instance=${encodeURIComponent(subdomain)}` : paths.register;
}

/**
 * A job's own address: the pipeline with that job's dialog open (`?job={id}`). Every
 * reference to a job (Insights, a customer's jobs) links here, so it opens that job only.
 */
export function jobPath(pipelinePath: string, jobId: string): string {
  return `${pipelinePath}?${new URLSearchParams({ job: jobId })}`;
}

/** The pipeline narrowed to one customer's jobs (`?customer={id}`). */
export function customerJobsPath(pipelinePath: string, customerId: string): string {
  return `${pipelinePath}?${new URLSearchParams({ customer: customerId })}`;
}

/** A customer's page (the customer screens are in the canonical family only). */
export function customerPath(subdomain: string, customerId: string): string {
  return `${paths.instanceCustomers(subdomain)}/${encodeURIComponent(customerId)}`;
}

/** A vehicle's page: its details and everything done to it. */
export function vehiclePath(subdomain: string, vehicleId: string): string {
  return `${instanceBase(subdomain)}/vehicles/${encodeURIComponent(vehicleId)}`;
}
