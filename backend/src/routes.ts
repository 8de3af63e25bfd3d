import type { AppDeps } from './deps.ts';
import type { ApiRouter } from './http/router.ts';

/** Each slice's routes, registered on the one guarded router (platform routes come first). */
export const routeModules: Array<(router: ApiRouter, deps: AppDeps) => void> = [];
