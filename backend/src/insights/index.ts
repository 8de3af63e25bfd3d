/** Insights: figures from the event history (the insights read model), for admins and managers. */
export { registerInsightsRoutes } from './routes.ts';
