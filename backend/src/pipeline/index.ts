/**
 * The pipeline slice's public module: what the other slices may use of it. Anything outside
 * backend/src/pipeline imports the slice through this file only (ESLint).
 */
export { jobCounterStream, jobDecider, jobStream, type JobEvent, type JobState } from './job-decider.ts';
export { findJob, jobAsOf, jobListViewJsonSql, jobViewFromEvents, jobViewOfRow, masked, type JobTarget } from './job-queries.ts';
export { createJob } from './job-create.ts';
export { jobListBody, jobListStatement, type JobListRow } from './job-list.ts';
export { projectedJob } from './job-state.ts';
export { PIPELINE_BASES } from './routes.ts';
export { jobFieldsSetBy, jobValuesBefore, restoreDeletedJob, revertJobChange, type StoredJobEvent } from './job-records.ts';
export { jobHistory } from './job-history.ts';
export { registerBoardRoutes } from './board-routes.ts';
export { registerPipelineRoutes } from './routes.ts';
export { customerCascadeReactor } from './customer-cascade.ts';
export { cancelJob, changeJobStage } from './job-commands.ts';
