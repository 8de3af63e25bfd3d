import {
  AUDIT_CSV_MAX_ROWS,
  auditFilterQuery,
  auditLogQuery,
  auditPageSchema,
  hasPermission,
  RECENT_ACTIVITY_COUNT,
  recentActivitySchema,
} from '@crm/projections/contract';
import { catchUpAsyncReadModels, type AppDeps } from '../deps.ts';
import type { UserPrincipal } from '../http/auth.ts';
import { access, userOf, type ApiRouter, type RouteDoc } from '../http/router.ts';
import { parseInput } from '../http/validation.ts';
import { type ActivityScope, auditCsv, auditEntries, auditPageJson, recentActivity } from './audit-queries.ts';

/** Both path families; the instance is always the session's. */
export const AUDIT_PATHS = ['/api/admin/audit', '/api/:instance/admin/audit'] as const;
export const AUDIT_CSV_PATHS = ['/api/admin/audit.csv', '/api/:instance/admin/audit.csv'] as const;
export const RECENT_ACTIVITY_PATHS = ['/api/activity/recent', '/api/:instance/activity/recent'] as const;

const DOCS = {
  log: {
    summary:
      "The audit log: the instance's timeline, filtered, newest first, in keyset pages (without canRead: accounts and instance only)",
    tag: 'audit',
    query: auditLogQuery,
    response: auditPageSchema,
  },
  csv: {
    summary: 'The audit log as a CSV download (at most 50,000 entries; X-Truncated says when there were more)',
    tag: 'audit',
    query: auditFilterQuery,
    produces: 'text/csv',
  },
  recent: {
    summary: "Recent Activity: the instance's newest entries (account changes only for user managers)",
    tag: 'audit',
    response: recentActivitySchema,
  },
} satisfies Record<string, RouteDoc>;

/**
 * The admins' audit log: the instance timeline, filtered and paged, and
 * as a CSV download. Role admin holds every permission, so canManageUsers lets in the
 * admins and whoever else manages the instance's users.
 */
/**
 * canRead guards the shop's records: one who manages users without it sees the entries of the
 * accounts and the instance, not those of customers, jobs or service requests (their names,
 * phones and quotes are in the summaries and changes).
 */
function scopeOf(me: UserPrincipal): ActivityScope {
  return hasPermission(me, 'canRead') ? {} : { onlyEntityTypes: ['user', 'instance'] };
}

export function registerAuditRoutes(router: ApiRouter, deps: AppDeps): void {
  const auditors = access.can('canManageUsers');

  for (const path of AUDIT_PATHS) {
    router.get(
      path,
      auditors,
      async (ctx) => {
        const { limit, cursor, ...filter } = parseInput(auditLogQuery, ctx.query);
        const me = userOf(ctx);
        // Read-your-writes: the page's statement says whether the projector had passed every
        // committed event; only when not does the route wait for it and read again.
        ctx.type = 'json';
        ctx.body = await auditPageJson(deps.knex, me.instance.id, { ...filter, ...scopeOf(me) }, limit, cursor, () =>
          catchUpAsyncReadModels(deps),
        );
      },
      { feature: 'admin', doc: DOCS.log },
    );
  }

  for (const path of AUDIT_CSV_PATHS) {
    router.get(
      path,
      auditors,
      async (ctx) => {
        const filter = parseInput(auditFilterQuery, ctx.query);
        const me = userOf(ctx);
        await catchUpAsyncReadModels(deps);
        const entries = await auditEntries(deps.knex, me.instance.id, { ...filter, ...scopeOf(me) }, AUDIT_CSV_MAX_ROWS);
        const day = deps.now().toISOString().slice(0, 10);
        ctx.type = 'text/csv; charset=utf-8';
        ctx.attachment(`audit-${me.instance.subdomain}-${day}.csv`);
        // The export stops at the cap; the header tells a client to narrow the filters.
        if (entries.length >= AUDIT_CSV_MAX_ROWS) ctx.set('X-Truncated', 'true');
        ctx.body = auditCsv(entries);
      },
      { feature: 'admin', doc: DOCS.csv },
    );
  }

  for (const path of RECENT_ACTIVITY_PATHS) {
    router.get(
      path,
      access.can('canRead'),
      async (ctx) => {
        const me = userOf(ctx);
        await catchUpAsyncReadModels(deps);
        ctx.body = { items: await recentActivity(deps.knex, me.instance.id, RECENT_ACTIVITY_COUNT, hasPermission(me, 'canManageUsers')) };
      },
      { doc: DOCS.recent },
    );
  }
}
