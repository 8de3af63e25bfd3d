import { Readable } from 'node:stream';
import { isUuid } from '@crm/projections/shared';
import type { AppDeps } from '../deps.ts';
import { access, type ApiRouter, type RouteDoc } from '../http/router.ts';
import { NotFoundError } from '../shared/errors.ts';
import { instanceEventLines, resolveInstance } from './instance-export.ts';

const DOCS = {
  export: {
    summary: "A shop's whole history: its events as JSONL, one per line in log order (what `npm run export` writes)",
    tag: 'platform',
    produces: 'application/x-ndjson',
  },
} satisfies Record<string, RouteDoc>;

/** The super admin downloads an instance's export from its card (backup, moving a shop). */
export function registerExportRoutes(router: ApiRouter, deps: AppDeps): void {
  router.get(
    '/api/crm-instances/:instanceId/export',
    access.superAdmin,
    async (ctx) => {
      const id = ctx.params.instanceId;
      if (!isUuid(id)) throw new NotFoundError('CRM instance not found');
      const instance = await resolveInstance(deps.knex, id);
      const day = deps.now().toISOString().slice(0, 10);
      ctx.attachment(`${instance.subdomain}-events-${day}.jsonl`);
      ctx.type = 'application/x-ndjson';
      // Streamed a page at a time: a shop's history can be large.
      ctx.body = Readable.from(instanceEventLines(deps.knex, instance.id));
    },
    { doc: DOCS.export },
  );
}
