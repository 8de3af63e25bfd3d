/** Undo from history and restore of deleted records (jobs and customers). */
export { registerRecordRoutes } from './routes.ts';
