import { onShutdown, startCli } from './cli.ts';
import { createProjector, openStorage } from './runtime.ts';

/** `npm run projector`: the projector on its own, for scaled-out deployments
 * (run the API with RUN_PROJECTOR=false). An advisory lock keeps one active. */
const { config, logger } = startCli();
const storage = await openStorage(config, logger);
const projector = createProjector(storage, logger);
projector.start();
logger.info('projector process running; Ctrl+C to stop');
onShutdown(async () => {
  await projector.stop();
  await storage.close();
}, logger);
