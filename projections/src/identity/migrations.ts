import type { SchemaMigration } from '../shared/migrations.ts';

/**
 * The events that change a user's account record, as they were when 0008_user_revision was written (a
 * migration keeps its own copy: it must do the same on every database, whatever the code says later).
 */
const USER_RECORD_EVENT_TYPES = ['UserCreated', 'UserRoleChanged', 'UserPermissionsChanged', 'UserLocked', 'UserUnlocked', 'UserDeleted'];

/**
 * The identity slice's read-model migrations (its tables, users and user_permissions, are
 * created by platform's 0001_platform). Names are recorded in every database and migrations
 * run ordered by name across all slices (db/migrate.ts): never rename one.
 */

/** The admin user list: an instance's users in the order they were created. */
const userListOrder: SchemaMigration = {
  name: '0002_identity',
  async up(knex, schema) {
    await knex.raw('CREATE INDEX ON ??.users (instance_id, created_at, id)', [schema]);
  },
};

/**
 * A user row's `revision`: the account record's revision (USER_RECORD_EVENT_TYPES), the ETag
 * of the user commands. Rows projected before get it from the PostgreSQL events table; with
 * EventStoreDB it stays empty (no If-Match check for that user) until the user's next change
 * or a `npm run projections:rebuild`.
 */
const userRevision: SchemaMigration = {
  name: '0008_user_revision',
  async up(knex, schema) {
    await knex.raw('ALTER TABLE ??.users ADD COLUMN IF NOT EXISTS revision integer', [schema]);
    await knex.raw(
      `UPDATE ??.users u SET revision = r.revision
         FROM (SELECT stream_id, max(revision) AS revision FROM public.events
                WHERE stream_id LIKE 'user-%' AND type IN (${USER_RECORD_EVENT_TYPES.map(() => '?').join(', ')})
                GROUP BY stream_id) r
        WHERE r.stream_id = 'user-' || u.id::text AND u.revision IS NULL`,
      [schema, ...USER_RECORD_EVENT_TYPES],
    );
  },
};

/**
 * Until when a user is locked out after failed sign-ins (the admin list says so and offers
 * to clear it). Rows projected before get it from the PostgreSQL events table (the last of
 * the events that set or end a throttle); with EventStoreDB from a rebuild.
 */
const userSignInLock: SchemaMigration = {
  name: '0009_user_sign_in_lock',
  async up(knex, schema) {
    await knex.raw('ALTER TABLE ??.users ADD COLUMN IF NOT EXISTS sign_in_locked_until timestamptz', [schema]);
    await knex.raw(
      `UPDATE ??.users u SET sign_in_locked_until = (last.data->>'lockedUntil')::timestamptz
         FROM (SELECT DISTINCT ON (stream_id) stream_id, type, data FROM public.events
                WHERE stream_id LIKE 'user-%'
                  AND type IN ('UserSignInThrottled', 'UserSignedIn', 'UserUnlocked', 'UserPinChanged', 'UserSignInLockCleared')
                ORDER BY stream_id, revision DESC) last
        WHERE last.type = 'UserSignInThrottled' AND last.stream_id = 'user-' || u.id::text`,
      [schema],
    );
  },
};

/**
 * A change to a user, its permissions or an instance notifies `crm_auth` at commit (public
 * crm_notify_auth): API processes drop the sessions they cached with their users, so a lock,
 * a role or permission change or a deactivation reaches every process's next request.
 */
const authNotify: SchemaMigration = {
  name: '0070_auth_notify',
  async up(knex, schema) {
    for (const table of ['users', 'user_permissions', 'crm_instances']) {
      await knex.raw(
        `CREATE TRIGGER ?? AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ??.?? FOR EACH STATEMENT EXECUTE FUNCTION public.crm_notify_auth()`,
        [`${table}_notify_auth`, schema, table],
      );
    }
  },
};

export const identityMigrations: SchemaMigration[] = [userListOrder, userRevision, userSignInLock, authNotify];
