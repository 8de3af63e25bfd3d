import { instanceFamilyOf, paths } from '@/config/paths';

/**
 * Where a successful instance sign-in leads: from the /maven entry to
 * /maven/home; from a location under /crm/ to the instance's dashboard; otherwise /pipeline
 * (which leads on to the signed-in instance's pipeline).
 */
export function redirectAfterLogin(pathname: string, subdomain: string): string {
  if (instanceFamilyOf(pathname) === 'maven') return paths.mavenHome;
  if (pathname.includes('/crm/')) return paths.instanceDashboard(subdomain);
  return '/pipeline';
}
