/** Live updates: one Server-Sent Events stream per browser tab, fed by the read models' checkpoint. */
export { closeLiveStreams, liveHubOf, registerLiveRoutes } from './routes.ts';
