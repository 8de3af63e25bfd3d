import { useLocation } from 'react-router-dom';
import { type InstanceLinks, instanceFamilyOf, instanceLinks } from '@/config/paths';

/** An instance's screens, in the route family of the page shown (/crm/{instance}/… or the provider's /maven/…). */
export function useInstanceLinks(subdomain: string): InstanceLinks {
  const { pathname } = useLocation();
  return instanceLinks(subdomain, instanceFamilyOf(pathname));
}
