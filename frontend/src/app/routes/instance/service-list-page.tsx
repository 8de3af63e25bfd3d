import { UnderConstruction } from './under-construction';

/**
 * PLACEHOLDER: the service list (spec-working-screens.md §2 "Service list"), at /crm/{instance}/service-list.
 * Replace this Component with the real screen (the route is already wired in app/router.tsx,
 * behind the sign-in guard). useSignedInUser() from features/identity gives the signed-in user
 * and their instance; config/paths.ts builds the instance's links.
 */
export function Component() {
  return <UnderConstruction title="Service Requests" subtitle="All service requests submitted for this shop." />;
}
