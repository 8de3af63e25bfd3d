/** The dashboard slice's public module: the instance home's figures. */
export { registerDashboardRoutes } from './routes.ts';
