import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { fieldChangeFromStored, type StoredFieldChange } from '@crm/projections/audit';
import { projections } from '@crm/projections/read-models';
import { readModelMigrations } from '@crm/projections/db/migrate';
import { rebuildReadModels } from '@crm/projections/runtime/rebuild';
import { userDecider, userStream } from '../../src/identity/user-decider.ts';
import { executeCommand } from '../../src/shared/commands.ts';
import {
  ApiClient,
  createTestInstance,
  signInSuperAdmin,
  signInUser,
  startTestServer,
  type ApiResponse,
  type TestInstance,
  type TestServer,
} from '../support/server.ts';

let server: TestServer;
let shop: TestInstance;
let other: TestInstance;
let owner: ApiClient;
let otherOwner: ApiClient;
const responses: ApiResponse[] = [];

beforeAll(async () => {
  server = await startTestServer();
  ApiClient.observer = (response) => void responses.push(response);
  shop = await createTestInstance(server, 'adminshop');
  other = await createTestInstance(server, 'adminother');
  owner = await signInUser(server, shop.subdomain, 'owner', '1234');
  otherOwner = await signInUser(server, other.subdomain, 'owner', '1234');
});
afterAll(async () => {
  ApiClient.observer = null;
  await server?.stop();
});

let counter = 0;
const uniqueName = (prefix = 'user') => `${prefix}${++counter}`;

interface User {
  id: string;
  username: string;
}

/** A user of the shop, created by its owner. */
async function addUser(body: Record<string, unknown> = {}, by: ApiClient = owner): Promise<User> {
  const res = await by.post('/api/admin/users', { username: uniqueName(), pin: '1111', ...body });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

async function userRow(id: string, client: ApiClient = owner) {
  const list = await client.get('/api/admin/users');
  return (list.body as Array<{ id: string }>).find((u) => u.id === id);
}

describe('every admin endpoint, in both path families, against every kind of caller', () => {
  type Endpoint = { name: string; ok: number; call: (client: ApiClient, base: string, target: string) => Promise<ApiResponse> };
  const endpoints: Endpoint[] = [
    { name: 'list', ok: 200, call: (c, base) => c.get(base) },
    { name: 'create', ok: 201, call: (c, base) => c.post(base, { username: uniqueName(), pin: '1111' }) },
    { name: 'delete', ok: 204, call: (c, base, id) => c.delete(`${base}/${id}`) },
    { name: 'lock', ok: 200, call: (c, base, id) => c.patch(`${base}/${id}/lock`, { isLocked: true }) },
    { name: 'role', ok: 200, call: (c, base, id) => c.patch(`${base}/${id}/role`, { role: 'admin' }) },
    { name: 'permissions', ok: 200, call: (c, base, id) => c.patch(`${base}/${id}/permissions`, { canDelete: true }) },
    { name: 'reset PIN', ok: 204, call: (c, base, id) => c.put(`${base}/${id}/pin`, { pin: '4321' }) },
  ];
  const bases = ['/api/admin/users', '/api/adminshop/admin/users'];
  const cases = bases.flatMap((base) => endpoints.map((endpoint) => ({ base, ...endpoint, label: `${endpoint.name} ${base}` })));

  let staff: ApiClient;
  let lockedOut: ApiClient;
  let superAdmin: ApiClient;
  let bystander: User;

  beforeAll(async () => {
    const staffUser = await addUser({ role: 'user', pin: '2222' });
    staff = await signInUser(server, 'adminshop', staffUser.username, '2222');
    const lockedAdmin = await addUser({ role: 'admin', pin: '3333' });
    lockedOut = await signInUser(server, 'adminshop', lockedAdmin.username, '3333');
    expect((await owner.patch(`/api/admin/users/${lockedAdmin.id}/lock`, { isLocked: true })).status).toBe(200);
    superAdmin = await signInSuperAdmin(server);
    bystander = await addUser();
  });

  test.each(cases)('$label: an admin of the instance may', async ({ base, ok, call }) => {
    const target = await addUser();
    const res = await call(owner, base, target.id);
    expect(res.status, res.text).toBe(ok);
  });

  test.each(cases)('$label: no session is 401', async ({ base, call }) => {
    expect((await call(new ApiClient(server.url), base, bystander.id)).status).toBe(401);
  });

  test.each(cases)('$label: role user without canManageUsers is 403', async ({ base, call }) => {
    const res = await call(staff, base, bystander.id);
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('You do not have permission to do this');
  });

  test.each(cases)('$label: a locked user is 401 (the session ended when locked)', async ({ base, call }) => {
    expect((await call(lockedOut, base, bystander.id)).status).toBe(401);
  });

  test.each(cases)('$label: the super admin is 403 (instance routes need an instance session)', async ({ base, call }) => {
    const res = await call(superAdmin, base, bystander.id);
    expect(res.status).toBe(403);
    expect(res.body.message).toBe('Sign in to the instance to do this');
  });

  test.each(cases)("$label: another instance's admin gets 404 for this instance's slug or ids", async ({ base, name, ok, call }) => {
    const res = await call(otherOwner, base, bystander.id);
    if (base.includes('adminshop') || !['list', 'create'].includes(name)) {
      expect(res.status).toBe(404);
    } else {
      // Without a slug or id the call is about the caller's own instance.
      expect(res.status).toBe(ok);
      expect(res.text).not.toContain(bystander.id);
      expect(res.text).not.toContain(shop.id);
    }
  });

  test('the bystander came through all of that untouched', async () => {
    expect(await userRow(bystander.id)).toMatchObject({
      id: bystander.id,
      role: 'user',
      isLocked: false,
      permissions: { canDelete: false },
    });
  });
});

describe('users list and creation', () => {
  test('a created user is answered as its projected row and appended to the list', async () => {
    const res = await owner.post('/api/admin/users', { username: 'Carla', displayName: 'Carla R', pin: '4444', role: 'user' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(String),
      username: 'Carla',
      displayName: 'Carla R',
      role: 'user',
      isLocked: false,
      isActive: true,
      createdAt: expect.any(String),
      lastLoginAt: null,
      permissions: { canRead: true, canWrite: true, canDelete: false, canManageUsers: false },
      revision: 0,
      signInLockedUntil: null,
    });
    expect(res.headers.get('etag')).toBe('"0"');
    const list = await owner.get('/api/admin/users');
    expect(list.body.at(-1)).toEqual(res.body);
    expect(list.body[0].username).toBe('owner');
    // The PIN works at once.
    await signInUser(server, 'adminshop', 'carla', '4444');
  });

  test('display name and role are optional (role user)', async () => {
    const res = await owner.post('/api/admin/users', { username: 'minimal', pin: '4444' });
    expect(res.body).toMatchObject({ displayName: '', role: 'user' });
  });

  test('usernames are unique per instance in any case, and free in another instance', async () => {
    await addUser({ username: 'Dupe' });
    const again = await owner.post('/api/admin/users', { username: 'DUPE', pin: '1111' });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('Username "DUPE" is already taken');
    expect((await otherOwner.post('/api/admin/users', { username: 'dupe', pin: '1111' })).status).toBe(201);
  });

  test.each([
    [{ username: 'ab', pin: '1111' }, 'Username must be at least 3 characters'],
    [{ pin: '1111' }, 'Username is required'],
    [{ username: 'valid', pin: '11' }, 'PIN must be exactly 4 digits'],
    [{ username: 'valid', pin: '11a1' }, 'PIN must contain only digits'],
    [{ username: 'valid' }, 'PIN is required'],
    [{ username: 'valid', pin: '1111', role: 'owner' }, 'Role must be user or admin'],
    [{ username: 'valid', pin: '1111', displayName: 'x'.repeat(101) }, 'Display name must be at most 100 characters'],
  ])('bad input %j is a 400: %s', async (body, message) => {
    const res = await owner.post('/api/admin/users', body);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
  });

  test('the list answers only this instance, oldest first, without deleted users', async () => {
    const gone = await addUser();
    expect((await owner.delete(`/api/admin/users/${gone.id}`)).status).toBe(204);
    const list = (await owner.get('/api/admin/users')).body as Array<{ id: string; createdAt: string }>;
    expect(list.map((u) => u.id)).not.toContain(gone.id);
    const times = list.map((u) => u.createdAt);
    expect([...times].sort()).toEqual(times);
    const otherIds = ((await otherOwner.get('/api/admin/users')).body as Array<{ id: string }>).map((u) => u.id);
    expect(otherIds.some((id) => list.some((u) => u.id === id))).toBe(false);
  });
});

describe('locking, roles, permissions and deletion', () => {
  test('locking ends the user’s sessions at once; unlocking lets them sign in again', async () => {
    const user = await addUser({ pin: '5555' });
    const session = await signInUser(server, 'adminshop', user.username, '5555');
    const locked = await owner.patch(`/api/admin/users/${user.id}/lock`, { isLocked: true });
    expect(locked.status).toBe(200);
    expect(locked.body).toMatchObject({ id: user.id, isLocked: true });
    expect((await session.get('/api/user/current')).status).toBe(401);
    expect((await owner.patch(`/api/admin/users/${user.id}/lock`, { isLocked: true })).body.isLocked).toBe(true);
    const unlocked = await owner.patch(`/api/admin/users/${user.id}/lock`, { isLocked: false });
    expect(unlocked.body.isLocked).toBe(false);
    await signInUser(server, 'adminshop', user.username, '5555');
  });

  test('the role changes, and the permissions follow the role', async () => {
    const user = await addUser();
    const promoted = await owner.patch(`/api/adminshop/admin/users/${user.id}/role`, { role: 'admin' });
    expect(promoted.status).toBe(200);
    expect(promoted.body).toMatchObject({
      role: 'admin',
      permissions: { canRead: true, canWrite: true, canDelete: true, canManageUsers: true },
    });
    const demoted = await owner.patch(`/api/admin/users/${user.id}/role`, { role: 'user' });
    expect(demoted.body).toMatchObject({
      role: 'user',
      permissions: { canRead: true, canWrite: true, canDelete: false, canManageUsers: false },
    });
    expect((await owner.patch(`/api/admin/users/${user.id}/role`, { role: 'boss' })).body.message).toBe('Role must be user or admin');
  });

  test('the permissions change one flag at a time and take effect at once', async () => {
    const user = await addUser({ pin: '6666' });
    const session = await signInUser(server, 'adminshop', user.username, '6666');
    expect((await session.get('/api/admin/users')).status).toBe(403);
    const res = await owner.patch(`/api/admin/users/${user.id}/permissions`, { canManageUsers: true, canDelete: true });
    expect(res.status).toBe(200);
    expect(res.body.permissions).toEqual({ canRead: true, canWrite: true, canDelete: true, canManageUsers: true });
    expect(res.body.role).toBe('user');
    expect((await session.get('/api/admin/users')).status).toBe(200);
    expect((await session.get('/api/user/current')).body.permissions.canManageUsers).toBe(true);
    const unknown = await owner.patch(`/api/admin/users/${user.id}/permissions`, { canFly: true });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toBe('Unknown permission: canFly');
    expect((await owner.patch(`/api/admin/users/${user.id}/permissions`, { canRead: 'yes' })).body.message).toBe(
      'canRead must be true or false',
    );
  });

  test("an admin's permissions are those of the role", async () => {
    const admin = await addUser({ role: 'admin' });
    const res = await owner.patch(`/api/admin/users/${admin.id}/permissions`, { canDelete: false });
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(/always has every permission/);
  });

  test('deleting removes the user, ends their sessions and frees the username', async () => {
    const user = await addUser({ username: 'Reusable', pin: '7777' });
    const session = await signInUser(server, 'adminshop', 'reusable', '7777');
    expect((await owner.delete(`/api/adminshop/admin/users/${user.id}`)).status).toBe(204);
    expect((await session.get('/api/user/current')).status).toBe(401);
    expect((await owner.delete(`/api/admin/users/${user.id}`)).status).toBe(404);
    expect((await owner.patch(`/api/admin/users/${user.id}/lock`, { isLocked: true })).status).toBe(404);
    const again = await owner.post('/api/admin/users', { username: 'reusable', pin: '8888' });
    expect(again.status).toBe(201);
    expect(again.body.id).not.toBe(user.id);
    await signInUser(server, 'adminshop', 'REUSABLE', '8888');
  });

  test('a deletion that stopped before freeing the username does not hold the name forever', async () => {
    const user = await addUser({ username: 'Orphan' });
    // UserDeleted recorded, the process gone before UsernameReleased.
    await executeCommand({
      store: server.runtime.deps.store,
      streamId: userStream(user.id),
      decider: userDecider,
      command: { type: 'Delete', by: { kind: 'provider' }, otherUnlockedAdmins: 1 },
      ctx: { instanceId: shop.id, actor: { kind: 'system', id: 'test', displayName: 'Test' }, correlationId: 'test', now: new Date() },
    });
    const again = await owner.post('/api/admin/users', { username: 'orphan', pin: '1111' });
    expect(again.status, again.text).toBe(201);
  });

  test('ids that are not ids are 404s', async () => {
    expect((await owner.delete('/api/admin/users/not-a-uuid')).status).toBe(404);
    expect((await owner.patch('/api/admin/users/00000000-0000-4000-8000-000000000000/role', { role: 'user' })).status).toBe(404);
  });

  test('an admin cannot change, lock or delete their own account', async () => {
    const me = (await owner.get('/api/user/current')).body.id as string;
    const expectations: Array<[Promise<ApiResponse>, string]> = [
      [owner.patch(`/api/admin/users/${me}/role`, { role: 'user' }), 'You cannot change your own role'],
      [owner.patch(`/api/admin/users/${me}/lock`, { isLocked: true }), 'You cannot lock your own account'],
      [owner.delete(`/api/admin/users/${me}`), 'You cannot delete your own account'],
      [owner.patch(`/api/admin/users/${me}/permissions`, { canDelete: false }), 'You cannot change your own permissions'],
      [owner.put(`/api/admin/users/${me}/pin`, { pin: '9999' }), 'Change your own PIN on your profile page'],
    ];
    for (const [call, message] of expectations) {
      const res = await call;
      expect(res.status).toBe(403);
      expect(res.body.message).toBe(message);
    }
    expect(await userRow(me)).toMatchObject({ role: 'admin', isLocked: false });
  });

  test('a manager without the admin role manages regular users only', async () => {
    const managerUser = await addUser({ pin: '1212' });
    await owner.patch(`/api/admin/users/${managerUser.id}/permissions`, { canManageUsers: true });
    const manager = await signInUser(server, 'adminshop', managerUser.username, '1212');
    const regular = await addUser({}, manager);
    expect((await manager.patch(`/api/admin/users/${regular.id}/lock`, { isLocked: true })).status).toBe(200);
    const admin = await addUser({ role: 'admin' });
    for (const res of [
      await manager.post('/api/admin/users', { username: uniqueName(), pin: '1111', role: 'admin' }),
      await manager.patch(`/api/admin/users/${regular.id}/role`, { role: 'admin' }),
      await manager.patch(`/api/admin/users/${admin.id}/lock`, { isLocked: true }),
      await manager.delete(`/api/admin/users/${admin.id}`),
      await manager.put(`/api/admin/users/${admin.id}/pin`, { pin: '0000' }),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body.message).toBe('Only an admin can manage admin accounts');
    }
    expect(await userRow(admin.id)).toMatchObject({ role: 'admin', isLocked: false });
  });

  test("an admin resets a staff member's PIN: the new one works, the old one and the staff member's sessions do not", async () => {
    const staffUser = await addUser({ pin: '1357' });
    const session = await signInUser(server, 'adminshop', staffUser.username, '1357');
    const res = await owner.put(`/api/admin/users/${staffUser.id}/pin`, { pin: '2468' });
    expect(res.status, res.text).toBe(204);
    expect((await session.get('/api/user/current')).status).toBe(401);
    const old = await new ApiClient(server.url).post('/api/auth/login', {
      username: staffUser.username,
      pin: '1357',
      instance: 'adminshop',
    });
    expect(old.status).toBe(401);
    await signInUser(server, 'adminshop', staffUser.username, '2468');
    const bad = await owner.put(`/api/admin/users/${staffUser.id}/pin`, { pin: '12a4' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('PIN must contain only digits');
  });

  test('the changes read as plain words in the instance activity, with old and new values', async () => {
    const user = await addUser({ username: 'Audited' });
    await owner.patch(`/api/admin/users/${user.id}/permissions`, { canDelete: true });
    await owner.patch(`/api/admin/users/${user.id}/role`, { role: 'admin' });
    await owner.patch(`/api/admin/users/${user.id}/lock`, { isLocked: true });
    await server.caughtUp();
    const rows = await server.runtime.deps.knex
      .withSchema('rm')
      .from('activity')
      .where({ instance_id: shop.id, entity_id: user.id })
      .orderBy([{ column: 'position_commit' }, { column: 'position_prepare' }])
      .select('summary', 'changes', 'actor_name');
    expect(rows.map((r) => r.summary)).toEqual([
      'Created user Audited (user)',
      'Changed the permissions of Audited',
      'Changed the role of Audited from user to admin',
      'Locked the account of Audited',
    ]);
    const changes = (row: { changes: StoredFieldChange[] }) => row.changes.map(fieldChangeFromStored);
    expect(changes(rows[1])).toEqual([{ field: 'canDelete', oldValue: false, newValue: true }]);
    expect(changes(rows[2])).toEqual([
      { field: 'role', oldValue: 'user', newValue: 'admin' },
      { field: 'canManageUsers', oldValue: false, newValue: true },
    ]);
    expect(rows.every((r) => r.actor_name === 'Owner')).toBe(true);
  });
});

describe('an instance always keeps an unlocked admin', () => {
  /** An instance with exactly two admins, each signed in. */
  async function twoAdmins(subdomain: string) {
    const instance = await createTestInstance(server, subdomain);
    const first = await signInUser(server, subdomain, 'owner', '1234');
    const created = await first.post('/api/admin/users', { username: 'second', pin: '4321', role: 'admin' });
    const second = await signInUser(server, subdomain, 'second', '4321');
    const firstId = (await first.get('/api/user/current')).body.id as string;
    return { instance, first, second, firstId, secondId: created.body.id as string };
  }

  async function unlockedAdmins(instanceId: string) {
    const rows = await server.runtime.deps.knex
      .withSchema('rm')
      .from('users')
      .where({ instance_id: instanceId, role: 'admin', is_locked: false });
    return rows.length;
  }

  test('two admins locking each other at the same moment: one wins, the other is refused', async () => {
    const { instance, first, second, firstId, secondId } = await twoAdmins('race1');
    const [a, b] = await Promise.all([
      first.patch(`/api/admin/users/${secondId}/lock`, { isLocked: true }),
      second.patch(`/api/admin/users/${firstId}/lock`, { isLocked: true }),
    ]);
    expect([a.status, b.status].filter((s) => s === 200)).toHaveLength(1);
    const refused = a.status === 200 ? b : a;
    // Refused by the rule, or (when the winner's lock landed first) by the ended session.
    expect([409, 401]).toContain(refused.status);
    if (refused.status === 409) expect(refused.body.message).toBe('An instance must keep at least one unlocked admin');
    expect(await unlockedAdmins(instance.id)).toBe(1);
  });

  test('two admins demoting each other at the same moment: one admin remains', async () => {
    const { instance, first, second, firstId, secondId } = await twoAdmins('race2');
    const [a, b] = await Promise.all([
      first.patch(`/api/admin/users/${secondId}/role`, { role: 'user' }),
      second.patch(`/api/admin/users/${firstId}/role`, { role: 'user' }),
    ]);
    expect([a.status, b.status].filter((s) => s === 200)).toHaveLength(1);
    const refused = a.status === 200 ? b : a;
    expect([409, 403]).toContain(refused.status);
    expect(await unlockedAdmins(instance.id)).toBe(1);
  });

  test('two admins deleting each other at the same moment: one admin remains', async () => {
    const { instance, first, second, firstId, secondId } = await twoAdmins('race3');
    const [a, b] = await Promise.all([first.delete(`/api/admin/users/${secondId}`), second.delete(`/api/admin/users/${firstId}`)]);
    expect([a.status, b.status].filter((s) => s === 204)).toHaveLength(1);
    expect(await unlockedAdmins(instance.id)).toBe(1);
  });
});

describe('own PIN', () => {
  test('any signed-in user changes their PIN with the current one', async () => {
    const user = await addUser({ pin: '1010' });
    const session = await signInUser(server, 'adminshop', user.username, '1010');
    const wrong = await session.put('/api/user/pin', { currentPin: '9999', newPin: '2020' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe('Current PIN is incorrect');
    expect((await session.put('/api/user/pin', { currentPin: '1010', newPin: '20' })).body.message).toBe('PIN must be exactly 4 digits');
    expect((await session.put('/api/user/pin', { newPin: '2020' })).body.message).toBe('Current PIN is required');
    expect((await session.put('/api/user/pin', { currentPin: '1010', newPin: '2020' })).status).toBe(204);
    // The session stays; the new PIN signs in, the old one does not.
    expect((await session.get('/api/user/current')).status).toBe(200);
    await signInUser(server, 'adminshop', user.username, '2020');
    expect(
      (await new ApiClient(server.url).post('/api/auth/login', { username: user.username, pin: '1010', instance: 'adminshop' })).status,
    ).toBe(401);
  });

  test('no session is 401, the super admin 403', async () => {
    expect((await new ApiClient(server.url).put('/api/user/pin', { currentPin: '1234', newPin: '4321' })).status).toBe(401);
    expect((await (await signInSuperAdmin(server)).put('/api/user/pin', { currentPin: '1234', newPin: '4321' })).status).toBe(403);
  });
});

describe('the super admin and an instance’s users', () => {
  test('lists an instance’s users and adds an admin to it, recorded with the super admin as actor', async () => {
    const superAdmin = await signInSuperAdmin(server);
    const created = await superAdmin.post(`/api/crm-instances/${shop.id}/users`, {
      username: 'rescuer',
      displayName: 'Rescuer',
      pin: '9090',
      role: 'admin',
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ username: 'rescuer', role: 'admin', isLocked: false });
    const list = await superAdmin.get(`/api/crm-instances/${shop.id}/users`);
    expect(list.status).toBe(200);
    expect(list.body.map((u: User) => u.username)).toContain('rescuer');
    const session = await signInUser(server, 'adminshop', 'rescuer', '9090');
    expect((await session.get('/api/user/current')).body.role).toBe('admin');
    await server.caughtUp();
    const activity = await server.runtime.deps.knex.withSchema('rm').from('activity').where({ entity_id: created.body.id }).first();
    expect(activity).toMatchObject({ actor_kind: 'superadmin', summary: 'Created user rescuer (admin)' });
  });

  test('resets a PIN: the new one works, the old one and its sessions do not', async () => {
    const admin = await addUser({ role: 'admin', pin: '3131' });
    const session = await signInUser(server, 'adminshop', admin.username, '3131');
    const superAdmin = await signInSuperAdmin(server);
    const res = await superAdmin.put(`/api/crm-instances/${shop.id}/users/${admin.id}/pin`, { pin: '3232' });
    expect(res.status).toBe(204);
    expect((await session.get('/api/user/current')).status).toBe(401);
    await signInUser(server, 'adminshop', admin.username, '3232');
    expect(
      (await new ApiClient(server.url).post('/api/auth/login', { username: admin.username, pin: '3131', instance: 'adminshop' })).status,
    ).toBe(401);
    expect((await superAdmin.put(`/api/crm-instances/${shop.id}/users/${admin.id}/pin`, { pin: '32' })).body.message).toBe(
      'PIN must be exactly 4 digits',
    );
  });

  test('unknown instances, and users of another instance, are 404', async () => {
    const superAdmin = await signInSuperAdmin(server);
    const otherUser = ((await otherOwner.get('/api/admin/users')).body as User[])[0]!;
    expect((await superAdmin.get('/api/crm-instances/nope/users')).status).toBe(404);
    expect((await superAdmin.get('/api/crm-instances/00000000-0000-4000-8000-000000000000/users')).status).toBe(404);
    expect(
      (await superAdmin.post('/api/crm-instances/00000000-0000-4000-8000-000000000000/users', { username: 'xyz', pin: '1111' })).status,
    ).toBe(404);
    expect((await superAdmin.put(`/api/crm-instances/${shop.id}/users/${otherUser.id}/pin`, { pin: '1111' })).status).toBe(404);
  });

  test('instance users and anonymous callers cannot use these routes', async () => {
    const anonymous = new ApiClient(server.url);
    const me = (await owner.get('/api/user/current')).body.id as string;
    for (const [client, status] of [
      [anonymous, 401],
      [owner, 403],
    ] as const) {
      expect((await client.get(`/api/crm-instances/${shop.id}/users`)).status).toBe(status);
      expect(
        (await client.post(`/api/crm-instances/${shop.id}/users`, { username: uniqueName(), pin: '1111', role: 'admin' })).status,
      ).toBe(status);
      expect((await client.put(`/api/crm-instances/${shop.id}/users/${me}/pin`, { pin: '1111' })).status).toBe(status);
    }
    await signInUser(server, 'adminshop', 'owner', '1234');
  });
});

describe('one concurrency policy: If-Match on every change of a user', () => {
  const STALE = 'This user was changed by someone else. Reload it and try again.';
  const base = '/api/admin/users';

  async function read(id: string): Promise<{ revision: number; etag: string | null; body: Record<string, unknown> }> {
    const res = await owner.get(`${base}/${id}`);
    expect(res.status, res.text).toBe(200);
    return { revision: res.body.revision, etag: res.headers.get('etag'), body: res.body };
  }

  function expectStale(res: ApiResponse, current: Record<string, unknown>) {
    expect(res.status, res.text).toBe(409);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(res.body).toMatchObject({ status: 409, title: 'Conflict', message: STALE, detail: STALE, current });
  }

  test('GET of one user and the list items carry the revision; the ETag is the same revision', async () => {
    const user = await addUser();
    const one = await read(user.id);
    expect(one.revision).toBe(0);
    expect(one.etag).toBe('"0"');
    expect(await userRow(user.id)).toMatchObject({ id: user.id, revision: 0 });
    expect((await owner.get(`/api/adminshop/admin/users/${user.id}`)).headers.get('etag')).toBe('"0"');
    expect((await owner.get(`${base}/not-an-id`)).status).toBe(404);
    expect((await otherOwner.get(`${base}/${user.id}`)).status).toBe(404);
  });

  test('a matching If-Match changes the user and answers the new ETag; a stale one is a 409 with the user as it is now', async () => {
    const user = await addUser();
    const seen = await read(user.id);
    // Another admin changes the role first.
    const first = await owner.patch(`${base}/${user.id}/role`, { role: 'admin' }, { 'if-match': seen.etag! });
    expect(first.status, first.text).toBe(200);
    expect(first.body).toMatchObject({ role: 'admin', revision: 1 });
    expect(first.headers.get('etag')).toBe('"1"');

    // The copy read before that is stale for every change, and nothing is changed.
    const current = { id: user.id, role: 'admin', isLocked: false, revision: 1 };
    expectStale(await owner.patch(`${base}/${user.id}/role`, { role: 'user' }, { 'if-match': seen.etag! }), current);
    expectStale(await owner.patch(`${base}/${user.id}/lock`, { isLocked: true }, { 'if-match': seen.etag! }), current);
    expectStale(await owner.patch(`${base}/${user.id}/permissions`, { canDelete: true }, { 'if-match': seen.etag! }), current);
    expectStale(await owner.put(`${base}/${user.id}/pin`, { pin: '9999' }, { 'if-match': seen.etag! }), current);
    expectStale(await owner.delete(`${base}/${user.id}`, { 'if-match': `"${seen.revision}"` }), current);
    expect(await read(user.id)).toMatchObject({ revision: 1, body: { role: 'admin', isLocked: false } });
    await signInUser(server, shop.subdomain, user.username, '1111');

    // With the current ETag every change goes through, each answering the next one. (A
    // revision is the stream's: the sign-in above took a number, but does not count as a change.)
    const demoted = await owner.patch(`${base}/${user.id}/role`, { role: 'user' }, { 'if-match': '"1"' });
    expect(demoted.status, demoted.text).toBe(200);
    expect(demoted.body.revision).toBeGreaterThan(1);
    expect(demoted.headers.get('etag')).toBe(`"${demoted.body.revision}"`);
    const locked = await owner.patch(`${base}/${user.id}/lock`, { isLocked: true }, { 'if-match': `W/"${demoted.body.revision}"` });
    expect(locked.status, locked.text).toBe(200);
    expect(locked.body).toMatchObject({ isLocked: true, revision: demoted.body.revision + 1 });
    const unlocked = await owner.patch(`${base}/${user.id}/lock`, { isLocked: false }, { 'if-match': String(locked.body.revision) });
    expect(unlocked.status, unlocked.text).toBe(200);
    const permitted = await owner.patch(
      `${base}/${user.id}/permissions`,
      { canDelete: true },
      { 'if-match': unlocked.headers.get('etag')! },
    );
    expect(permitted.status, permitted.text).toBe(200);
    expect(permitted.body).toMatchObject({ permissions: { canDelete: true }, revision: unlocked.body.revision + 1 });
    const etag = permitted.headers.get('etag')!;
    // A PIN is nothing the admin screens show: resetting it leaves the record's revision.
    expect((await owner.put(`${base}/${user.id}/pin`, { pin: '2222' }, { 'if-match': etag })).status).toBe(204);
    expect((await read(user.id)).etag).toBe(etag);
    expect((await owner.delete(`${base}/${user.id}`, { 'if-match': etag })).status).toBe(204);
    expect(await userRow(user.id)).toBeUndefined();
  });

  test('without If-Match (or with *) a change works as before, whatever changed meanwhile', async () => {
    const user = await addUser();
    expect((await owner.patch(`${base}/${user.id}/role`, { role: 'admin' })).status).toBe(200);
    expect((await owner.patch(`${base}/${user.id}/role`, { role: 'user' }, { 'if-match': '*' })).status).toBe(200);
    expect((await owner.patch(`${base}/${user.id}/permissions`, { canDelete: true })).status).toBe(200);
    expect((await owner.put(`${base}/${user.id}/pin`, { pin: '3333' })).status).toBe(204);
    expect((await owner.delete(`${base}/${user.id}`)).status).toBe(204);
  });

  test("the user's own sign-ins and PIN changes do not make an admin's copy stale", async () => {
    const user = await addUser();
    const seen = await read(user.id);
    const client = await signInUser(server, shop.subdomain, user.username, '1111');
    expect((await client.put('/api/user/pin', { currentPin: '1111', newPin: '4444' })).status).toBe(204);
    expect(
      (await new ApiClient(server.url).post('/api/auth/login', { instance: shop.subdomain, username: user.username, pin: '0000' })).status,
    ).toBe(401);
    await signInUser(server, shop.subdomain, user.username, '4444');
    const locked = await owner.patch(`${base}/${user.id}/lock`, { isLocked: true }, { 'if-match': seen.etag! });
    expect(locked.status, locked.text).toBe(200);
    expect(locked.body.isLocked).toBe(true);
    expect(locked.body.revision).toBeGreaterThan(seen.revision);
  });

  test("a refusal of the decider's own stays what it was (not a conflict about versions)", async () => {
    const me: string = (await owner.get('/api/user/current')).body.id;
    const seen = await read(me);
    const self = await owner.patch(`${base}/${me}/role`, { role: 'user' }, { 'if-match': seen.etag! });
    expect(self.status).toBeGreaterThanOrEqual(400);
    expect(self.body.message).not.toBe(STALE);
  });

  test('an If-Match that is no ETag of ours is a 400; a user of another instance is a 404 whatever the header', async () => {
    const user = await addUser();
    const bad = await owner.patch(`${base}/${user.id}/role`, { role: 'admin' }, { 'if-match': 'yesterday' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('If-Match must be the ETag this API gave out, like "3"');
    expect((await otherOwner.patch(`${base}/${user.id}/role`, { role: 'admin' }, { 'if-match': '"7"' })).status).toBe(404);
    expect((await userRow(user.id))!).toMatchObject({ role: 'user', revision: 0 });
  });

  test('the super admin resets a PIN with If-Match too', async () => {
    const user = await addUser();
    const superAdmin = await signInSuperAdmin(server);
    const path = `/api/crm-instances/${shop.id}/users/${user.id}/pin`;
    expect((await owner.patch(`${base}/${user.id}/lock`, { isLocked: true })).status).toBe(200);
    expectStale(await superAdmin.put(path, { pin: '5555' }, { 'if-match': '"0"' }), { id: user.id, isLocked: true, revision: 1 });
    expect((await superAdmin.put(path, { pin: '5555' }, { 'if-match': '"1"' })).status).toBe(204);
  });
});

describe('read models', () => {
  test('no answer in this file carried a secret', () => {
    expect(responses.length).toBeGreaterThan(100);
    for (const res of responses) expect(res.text).not.toMatch(/pinHash|passwordHash|scrypt\$/i);
  });

  test('rows projected before revisions were kept get theirs from the events (the read-model migration)', async () => {
    const { knex } = server.runtime.deps;
    const user = await addUser();
    expect((await owner.patch(`/api/admin/users/${user.id}/lock`, { isLocked: true })).status).toBe(200);
    // Sign-ins and PIN resets move the stream, not the record.
    expect((await owner.put(`/api/admin/users/${user.id}/pin`, { pin: '7777' })).status).toBe(204);
    await knex.withSchema('rm').table('users').where({ id: user.id }).update({ revision: null });
    expect((await owner.get(`/api/admin/users/${user.id}`)).headers.get('etag')).toBeNull();
    expect(await userRow(user.id)).not.toHaveProperty('revision');
    const migration = readModelMigrations.find((m) => m.name === '0008_user_revision')!;
    await migration.up(knex, 'rm');
    expect(await userRow(user.id)).toMatchObject({ revision: 1 });
    // Again: nothing changes.
    await migration.up(knex, 'rm');
    expect(await userRow(user.id)).toMatchObject({ revision: 1 });
  });

  test('a rebuild from the events gives identical tables', async () => {
    const { knex, store } = server.runtime.deps;
    const report = await rebuildReadModels({ knex, store, projections });
    expect(report.tables.filter((t) => !t.identical)).toEqual([]);
    expect(report.tables.map((t) => t.table)).toEqual(expect.arrayContaining(['users', 'user_permissions', 'activity']));
  });
});
