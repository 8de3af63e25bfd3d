/** The calendar slice: its routes and its range query (the appointments themselves are pipeline jobs). */
export { registerCalendarRoutes } from './routes.ts';
export { listAppointments } from './calendar-queries.ts';
