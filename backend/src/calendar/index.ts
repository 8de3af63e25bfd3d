/** The calendar slice: its routes and its range query (the appointments themselves are pipeline jobs). */
export { registerCalendarRoutes } from './routes.ts';
export { appointmentsJson, appointmentsStatement } from './calendar-queries.ts';
