import type { Knex } from 'knex';
import { permissionsOfColumns, type UserChoice, type UserView } from '@crm/projections/identity';
import { isUuid } from '@crm/projections/shared';
import type { UserAccountRow } from '../http/auth.ts';
import { withTenant } from '../infra/tenant-db.ts';
import { NotFoundError } from '../shared/errors.ts';

interface UserRow extends UserAccountRow {
  created_at: Date;
  last_login_at: Date | null;
  /** Null for a row projected before revisions were kept (see the read-model migration). */
  revision: number | null;
  sign_in_locked_until: Date | null;
}

function toUserView(row: UserRow): UserView {
  return {
    id: row.id,
    username: row.username,
    displayName: row.display_name,
    role: row.role,
    isLocked: row.is_locked,
    isActive: row.is_active,
    createdAt: new Date(row.created_at).toISOString(),
    lastLoginAt: row.last_login_at ? new Date(row.last_login_at).toISOString() : null,
    permissions: permissionsOfColumns(row),
    signInLockedUntil: row.sign_in_locked_until ? new Date(row.sign_in_locked_until).toISOString() : null,
    ...(row.revision === null ? {} : { revision: row.revision }),
  };
}

/** Deleted users have no rows, so nothing here can return one. */
const usersOf = (db: Knex, instanceId: string) =>
  db
    .withSchema('rm')
    .from('users as u')
    .join('user_permissions as p', 'p.user_id', 'u.id')
    .where('u.instance_id', instanceId)
    .select(
      'u.id',
      'u.username',
      'u.display_name',
      'u.role',
      'u.is_locked',
      'u.is_active',
      'u.created_at',
      'u.last_login_at',
      'p.can_read',
      'p.can_write',
      'p.can_delete',
      'p.can_manage_users',
      'u.revision',
      'u.sign_in_locked_until',
    );

/** An instance's users, oldest first (a new user joins the end of the list). */
export async function listUsers(knex: Knex, instanceId: string): Promise<UserView[]> {
  const rows = (await withTenant(knex, instanceId, (db) =>
    usersOf(db, instanceId).orderBy([{ column: 'u.created_at' }, { column: 'u.id' }]),
  )) as UserRow[];
  return rows.map(toUserView);
}

/** A user of this instance; null for an unknown id or one of another instance. */
export async function findUser(knex: Knex, instanceId: string, userId: string): Promise<UserView | null> {
  if (!isUuid(userId)) return null;
  const row = (await withTenant(knex, instanceId, (db) => usersOf(db, instanceId).where('u.id', userId).first())) as UserRow | undefined;
  return row ? toUserView(row) : null;
}

export async function getUser(knex: Knex, instanceId: string, userId: string): Promise<UserView> {
  const user = await findUser(knex, instanceId, userId);
  if (!user) throw new NotFoundError('User not found');
  return user;
}

/** Unlocked admins of the instance other than `userId`. */
export async function countOtherUnlockedAdmins(knex: Knex, instanceId: string, userId: string): Promise<number> {
  const row = (await withTenant(knex, instanceId, (db) =>
    db
      .withSchema('rm')
      .from('users')
      .where({ instance_id: instanceId, role: 'admin', is_locked: false, is_active: true })
      .whereNot({ id: userId })
      .count<{ count: string }>({ count: '*' })
      .first(),
  )) as { count: string } | undefined;
  return Number(row?.count ?? 0);
}

/**
 * The CSR and Tech selects: users who can work now. Locked and
 * deactivated users are left out (deleted ones have no row); a job that already names
 * one keeps the name, so the form shows it as its current value.
 */
/**
 * Who can do the work on a job (the CSR and Tech choices, the calendar's technician lanes):
 * active users, not locked, who may change jobs (write permission, or role admin). A
 * read-only user cannot work on a job, so is never offered.
 */
const assignableUsers = (db: Knex, instanceId: string) =>
  db
    .withSchema('rm')
    .from('users as u')
    .join('user_permissions as p', 'p.user_id', 'u.id')
    .where({ 'u.instance_id': instanceId, 'u.is_locked': false, 'u.is_active': true })
    .andWhereRaw(`(u.role = 'admin' OR p.can_write)`);

export async function listUserChoices(knex: Knex, instanceId: string): Promise<UserChoice[]> {
  const rows = (await withTenant(knex, instanceId, (db) =>
    assignableUsers(db, instanceId)
      .orderByRaw(`lower(coalesce(nullif(u.display_name, ''), u.username)), u.id`)
      .select('u.id', 'u.username', 'u.display_name'),
  )) as Array<{ id: string; username: string; display_name: string }>;
  return rows.map((row) => ({ id: row.id, username: row.username, displayName: row.display_name }));
}

/**
 * Whether a job may name `name` as its technician: a name no user of the instance goes by
 * (a former or imported technician) may stay; a user's name must be one who can do the work
 * (see listUserChoices). Null when it may; otherwise why not, for the field's error.
 */
export async function unassignableReason(knex: Knex, instanceId: string, name: string): Promise<string | null> {
  const wanted = name.trim().toLowerCase();
  if (!wanted) return null;
  const byName = (db: Knex.QueryBuilder) => db.whereRaw(`lower(coalesce(nullif(u.display_name, ''), u.username)) = ?`, [wanted]);
  const [named, assignable] = await withTenant(knex, instanceId, async (db) => [
    (await byName(db.withSchema('rm').from('users as u').where('u.instance_id', instanceId)).first('u.id')) as { id: string } | undefined,
    (await byName(assignableUsers(db, instanceId)).first('u.id')) as { id: string } | undefined,
  ]);
  if (!named || assignable) return null;
  return `${name.trim()} cannot be assigned: only active users who may change jobs (not read-only, not locked) can do the work`;
}
