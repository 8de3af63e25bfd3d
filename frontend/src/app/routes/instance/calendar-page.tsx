import { UnderConstruction } from './under-construction';

/**
 * PLACEHOLDER: the calendar (spec-working-screens.md §2 "Calendar screen"), at /crm/{instance}/calendar and /maven/calendar.
 * Replace this Component with the real screen (the route is already wired in app/router.tsx,
 * behind the sign-in guard). useSignedInUser() from features/identity gives the signed-in user
 * and their instance; config/paths.ts builds the instance's links.
 */
export function Component() {
  return <UnderConstruction title="Calendar" subtitle="Appointments by day, week and month." />;
}
