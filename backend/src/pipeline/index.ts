/**
 * The pipeline slice's public module: what the other slices may use of it. Anything outside
 * backend/src/pipeline imports the slice through this file only (ESLint).
 */
export { jobDecider, jobStream, type JobEvent, type JobState } from './job-decider.ts';
export { findJob, jobAsOf, jobViewFromEvents, jobViewOfRow, masked, type JobTarget } from './job-queries.ts';
export { createJob, projectedJob } from './job-service.ts';
export { PIPELINE_BASES } from './routes.ts';
export { restoreDeletedJob, revertJobChange } from './job-records.ts';
