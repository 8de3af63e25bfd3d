/** Paths of the platform screens (spec-platform.md §2). Instance routes live under /crm/{instance}. */

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
  instanceAudit: (subdomain: string) => `${instanceBase(subdomain)}/admin/audit`,
  instanceServiceForm: (subdomain: string) => `${instanceBase(subdomain)}/service-form`,
  instanceServiceList: (subdomain: string) => `${instanceBase(subdomain)}/service-list`,
  /** The provider's own instance (DECISIONS.md §1): entry and pages. */
  maven: '/maven',
  mavenHome: '/maven/home',
  mavenPipeline: '/maven/pipeline',
  mavenCustomers: '/maven/customers',
  mavenCalendar: '/maven/calendar',
  mavenAdmin: '/maven/admin',
  /** Instance login by subdomain. */
  subdomainLogin: (subdomain: string) => `/${encodeURIComponent(subdomain)}/login`,
  editService: (id: string | number) => `/edit-service/${encodeURIComponent(String(id))}`,
  profile: '/profile',
  settings: '/settings',
  register: '/register',
} as const;
