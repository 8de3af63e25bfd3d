import { activityProjection } from './activity.ts';
import { customersProjection } from './customers.ts';
import { jobsProjection } from './jobs.ts';
import { platformProjection } from './platform.ts';
import type { Projection } from './projection.ts';

/** The read-model set one projector maintains, applied in this order per event. */
export const projections: Projection[] = [platformProjection, activityProjection, customersProjection, jobsProjection];
