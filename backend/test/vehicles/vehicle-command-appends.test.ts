import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { VehicleView } from '@crm/projections/vehicles';
import { systemContext, type InstanceContext } from '../../src/shared/commands.ts';
import { NotFoundError } from '../../src/shared/errors.ts';
import { vehicleStream } from '../../src/vehicles/vehicle-decider.ts';
import { vehicleCommandAppends } from '../../src/vehicles/vehicle-service.ts';
import { vinStream } from '../../src/vehicles/vehicle-vins.ts';
import { ApiClient, createTestInstance, signInUser, startTestServer, type TestInstance, type TestServer } from '../support/server.ts';

/**
 * A vehicle command decided for another command's append goes through the runner its own
 * route uses: the same decision, the same VIN bookkeeping, nothing appended until that append.
 */
let server: TestServer;
let shop: TestInstance;
let owner: ApiClient;
const base = '/api/cmdappends';

beforeAll(async () => {
  server = await startTestServer();
  shop = await createTestInstance(server, 'cmdappends');
  owner = await signInUser(server, 'cmdappends', 'owner', '1234');
});
afterAll(async () => {
  await server?.stop();
});

const ctxOf = (instanceId: string): InstanceContext => ({ ...systemContext(new Date()), instanceId, correlationId: randomUUID() });

describe('a vehicle command decided without appending', () => {
  test("a deletion's appends are the vehicle's VehicleDeleted and its VIN's release, appended by nobody until the caller does", async () => {
    const customer = await owner.post(`${base}/customers`, { name: 'Dee Decided' });
    expect(customer.status, customer.text).toBe(201);
    const vin = '1HGCM82633A004352';
    const made = await owner.post(`${base}/customers/${customer.body.id}/vehicles`, { make: 'Honda', model: 'Accord', vin });
    expect(made.status, made.text).toBe(201);
    const vehicle = made.body as VehicleView;
    const { store } = server.runtime.deps;
    const ctx = ctxOf(shop.id);

    const decided = await vehicleCommandAppends(server.runtime.deps, vehicle.id, { type: 'DeleteVehicle', instanceId: shop.id }, ctx);
    expect(decided.state).toMatchObject({ status: 'deleted', vehicleId: vehicle.id });
    expect(decided.appends.map((a) => [a.streamId, a.events.map((e) => e.type), a.expectedRevision])).toEqual([
      [vehicleStream(vehicle.id), ['VehicleDeleted'], 0],
      [vinStream(shop.id, vin), ['VinReleased'], 0],
    ]);
    // Nothing was recorded: the vehicle is still there, holding its VIN.
    expect((await owner.get(`${base}/vehicles/${vehicle.id}`)).status).toBe(200);
    expect((await store.readStream(vehicleStream(vehicle.id))).length).toBe(1);

    await store.appendMany(decided.appends);
    expect((await owner.get(`${base}/vehicles/${vehicle.id}`)).status).toBe(404);
    const again = await owner.post(`${base}/customers/${customer.body.id}/vehicles`, { model: 'Accord', vin });
    expect(again.status, again.text).toBe(201);

    // Refused as the route refuses it: a deleted vehicle, or another instance's, is not found.
    await expect(
      vehicleCommandAppends(server.runtime.deps, vehicle.id, { type: 'DeleteVehicle', instanceId: shop.id }, ctx),
    ).rejects.toBeInstanceOf(NotFoundError);
    const other = (again.body as VehicleView).id;
    await expect(
      vehicleCommandAppends(server.runtime.deps, other, { type: 'DeleteVehicle', instanceId: randomUUID() }, ctx),
    ).rejects.toBeInstanceOf(NotFoundError);
  });
});
