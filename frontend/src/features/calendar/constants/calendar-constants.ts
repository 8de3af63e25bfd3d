import { CALENDAR_DURATIONS as DURATIONS } from '@crm/projections/pipeline';
import type { Stage } from '@crm/projections/pipeline';

/** Durations the calendar offers, in minutes. */
export const CALENDAR_DURATIONS = DURATIONS;

/** Calendar-created jobs start here. */
export const SCHEDULED_STAGE: Stage = 'Scheduled';

export const LOADING_CALENDAR = 'Loading calendar...';
