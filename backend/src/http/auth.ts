import type { Knex } from 'knex';
import { permissionsOfColumns, type PermissionColumns, type Permissions, type Role } from '@crm/projections/identity';
import type { Features } from '@crm/projections/platform';
import { parseFeatures, runtimeTimeZone } from '@crm/projections/platform';
import type { Actor } from '@crm/projections/eventstore/port';

/** What a session cookie stands for: the super admin, or a staff user of one instance. */
export type SessionData = { kind: 'superadmin'; superAdminId: string } | { kind: 'user'; userId: string; instanceId: string };

export interface InstanceSummary {
  id: string;
  name: string;
  subdomain: string;
  displayName: string;
  features: Features;
  /** IANA zone of the shop (the server's when it never chose one). */
  timeZone: string;
  /** Whether its public service-request page is on. */
  publicRequests: boolean;
  isActive: boolean;
}

export type Principal =
  | { kind: 'superadmin'; superAdminId: string }
  | {
      kind: 'user';
      userId: string;
      username: string;
      displayName: string;
      role: Role;
      permissions: Permissions;
      isLocked: boolean;
      instance: InstanceSummary;
    };

export type UserPrincipal = Extract<Principal, { kind: 'user' }>;

export function actorOf(principal: Principal, superAdminName = 'Super admin'): Actor {
  return principal.kind === 'superadmin'
    ? { kind: 'superadmin', id: principal.superAdminId, displayName: superAdminName }
    : { kind: 'user', id: principal.userId, displayName: principal.displayName || principal.username };
}

/** A user's account columns: users ⋈ user_permissions. */
export interface UserAccountRow extends PermissionColumns {
  id: string;
  username: string;
  display_name: string;
  role: Role;
  is_locked: boolean;
  is_active: boolean;
}

export interface UserRow extends UserAccountRow {
  instance_id: string;
  instance_name: string;
  subdomain: string;
  instance_display_name: string;
  features: unknown;
  time_zone: string | null;
  public_requests: boolean;
  instance_active: boolean;
}

/** The principal's columns: users ⋈ user_permissions ⋈ crm_instances (aliases u, p, i). */
export const PRINCIPAL_COLUMNS = `u.id, u.username, u.display_name, u.role, u.is_locked, u.is_active,
  p.can_read, p.can_write, p.can_delete, p.can_manage_users,
  i.id AS instance_id, i.name AS instance_name, i.subdomain, i.display_name AS instance_display_name,
  i.features, i.time_zone, i.public_requests, i.is_active AS instance_active`;

/** The session's user as the read models know it now (locks and role changes apply at once). */
export async function loadUserPrincipal(knex: Knex, userId: string, instanceId: string): Promise<UserPrincipal | null> {
  const result = await knex.raw<{ rows: UserRow[] }>(
    `SELECT ${PRINCIPAL_COLUMNS}
       FROM rm.users u JOIN rm.user_permissions p ON p.user_id = u.id JOIN rm.crm_instances i ON i.id = u.instance_id
      WHERE u.id = ? AND u.instance_id = ? LIMIT 1`,
    [userId, instanceId],
  );
  const row = result.rows[0];
  return row ? principalOfRow(row) : null;
}

/** A row with PRINCIPAL_COLUMNS as a principal. */
export function principalOfRow(row: UserRow): UserPrincipal {
  return {
    kind: 'user',
    userId: row.id,
    username: row.username,
    displayName: row.display_name,
    role: row.role,
    isLocked: row.is_locked || !row.is_active,
    permissions: permissionsOfColumns(row),
    instance: {
      id: row.instance_id,
      name: row.instance_name,
      subdomain: row.subdomain,
      displayName: row.instance_display_name,
      features: parseFeatures(row.features),
      timeZone: row.time_zone ?? runtimeTimeZone(),
      publicRequests: row.public_requests,
      isActive: row.instance_active,
    },
  };
}
