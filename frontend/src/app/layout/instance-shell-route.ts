import { normalizeSubdomain } from '@crm/projections/platform';
import { useMatches } from 'react-router-dom';
import { instanceFamilyOf, type InstanceFamily } from '@/config/paths';

/** Route handle of the instance screens: the header shows the instance navigation on them. */
export const instanceShellHandle = { instanceShell: true } as const;

function isInstanceShellHandle(handle: unknown): boolean {
  return typeof handle === 'object' && handle !== null && (handle as { instanceShell?: unknown }).instanceShell === true;
}

/**
 * Null outside the instance screens; on them, the route family and the instance slug named
 * by the path (/crm/{instance}, /{subdomain}, /maven), if any.
 */
export function useInstanceShellRoute(): { family: InstanceFamily; slug: string | undefined } | null {
  const matches = useMatches();
  if (!matches.some((match) => isInstanceShellHandle(match.handle))) return null;
  const last = matches[matches.length - 1];
  const family = instanceFamilyOf(last?.pathname ?? '');
  const named = last?.params.instance ?? last?.params.subdomain ?? (family === 'maven' ? 'maven' : undefined);
  return { family, slug: named === undefined ? undefined : normalizeSubdomain(named) || undefined };
}
