import { paths } from '@/config/paths';

/** True for /maven and the pages of the provider's own instance under it. */
export function isMavenPath(pathname: string): boolean {
  return pathname === paths.maven || pathname.startsWith(`${paths.maven}/`);
}

/**
 * Where a successful instance sign-in leads (spec-platform.md §4): from the /maven entry to
 * /maven/home; from a location under /crm/ to the instance's dashboard; otherwise /pipeline
 * (which leads on to the signed-in instance's pipeline).
 */
export function redirectAfterLogin(pathname: string, subdomain: string): string {
  if (isMavenPath(pathname)) return paths.mavenHome;
  if (pathname.includes('/crm/')) return paths.instanceDashboard(subdomain);
  return '/pipeline';
}

/**
 * The sign-in page for an instance: /maven for the /maven family, /crm/{instance} otherwise,
 * and /crm when no instance is known (spec-platform.md §2).
 */
export function instanceEntryPath(instance: string | undefined, pathname = ''): string {
  if (isMavenPath(pathname)) return paths.maven;
  return instance ? paths.instance(instance) : paths.crmTemplate;
}
