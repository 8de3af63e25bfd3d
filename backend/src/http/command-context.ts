import type { AppDeps } from '../deps.ts';
import type { CommandContext } from '../shared/commands.ts';
import { actorOf } from './auth.ts';
import type { ApiContext } from './router.ts';

/** Who runs a request's command, in which instance, under which request id and at what time. */
export function commandContext(ctx: ApiContext, deps: AppDeps, instanceId: string | null): CommandContext {
  const principal = ctx.state.principal;
  return {
    instanceId,
    actor: principal ? actorOf(principal) : { kind: 'system', id: 'anonymous', displayName: 'Anonymous' },
    correlationId: ctx.state.requestId,
    now: deps.now(),
  };
}
