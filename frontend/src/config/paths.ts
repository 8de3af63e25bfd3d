/** Paths of the platform screens (spec-platform.md §2). Instance routes live under /crm/{instance}. */
export const paths = {
  home: '/',
  superAdminLogin: '/super-admin-login',
  crmSelection: '/crm-selection',
  crmBuilder: '/crm-builder',
  crmTemplate: '/crm',
  legacyLogin: '/login',
  instance: (subdomain: string) => `/crm/${encodeURIComponent(subdomain)}`,
} as const;
