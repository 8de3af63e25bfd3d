import { UnderConstruction } from './under-construction';

/**
 * PLACEHOLDER: the service request form (spec-working-screens.md §2), at /crm/{instance}/service-form.
 * Replace this Component with the real screen (the route is already wired in app/router.tsx,
 * behind the sign-in guard). useSignedInUser() from features/identity gives the signed-in user
 * and their instance; config/paths.ts builds the instance's links.
 */
export function Component() {
  return <UnderConstruction title="Service Request Form" subtitle="Request a service for a customer's vehicle." />;
}
