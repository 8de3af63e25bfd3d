import { onShutdown, startCli } from './cli.ts';
import { createProjector, createReactors, openStorage } from './runtime.ts';

/** `npm run projector`: the projector and the reactors on their own, for scaled-out
 * deployments (run the API with RUN_PROJECTOR=false). Advisory locks keep one of each active. */
const { config, logger } = startCli();
const storage = await openStorage(config, logger);
const projector = createProjector(storage, logger);
const reactors = createReactors(storage, logger);
projector.start();
for (const reactor of reactors) reactor.start();
logger.info('projector process running; Ctrl+C to stop');
onShutdown(async () => {
  await Promise.all(reactors.map((reactor) => reactor.stop()));
  await projector.stop();
  await storage.close();
}, logger);
