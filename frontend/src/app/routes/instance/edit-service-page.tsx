import { UnderConstruction } from './under-construction';

/**
 * PLACEHOLDER: the service request page (DECISIONS.md §5), at /edit-service/{id}.
 * Replace this Component with the real screen (the route is already wired in app/router.tsx,
 * behind the sign-in guard). useSignedInUser() from features/identity gives the signed-in user
 * and their instance; config/paths.ts builds the instance's links.
 */
export function Component() {
  return <UnderConstruction title="Service Request" subtitle="View and edit a service request." />;
}
