import { describe, expect, test } from 'vitest';
import { EMPTY_VEHICLE_FIELDS, type VehicleFields } from '@crm/projections/vehicles';
import { vehicleDecider, type VehicleCommand, type VehicleEvent } from '../../src/vehicles/vehicle-decider.ts';
import { deciderSpec } from '../support/decider.ts';

const VEHICLE_ID = '00000000-0000-4000-8000-000000000e01';
const INSTANCE_ID = '00000000-0000-4000-8000-0000000000aa';
const OTHER_INSTANCE = '00000000-0000-4000-8000-0000000000bb';
const CUSTOMER_ID = '00000000-0000-4000-8000-000000000c01';
const JOB_ID = '00000000-0000-4000-8000-000000000f01';

const fields: VehicleFields = { ...EMPTY_VEHICLE_FIELDS, year: 2015, make: 'Ford', model: 'F-150' };
const created: VehicleEvent = {
  type: 'VehicleCreated',
  data: { vehicleId: VEHICLE_ID, instanceId: INSTANCE_ID, customerId: CUSTOMER_ID, ...fields },
};
const readData = (mileage: number, previous: number | null) => ({
  vehicleId: VEHICLE_ID,
  label: '2015 Ford F-150',
  mileage,
  previous,
  jobId: JOB_ID,
});
const read = (mileage: number, previous: number | null): VehicleEvent => ({
  type: 'VehicleMileageRecorded',
  data: readData(mileage, previous),
});

const given = deciderSpec(vehicleDecider);

describe('vehicle decider', () => {
  test('created with its fields and customer', () => {
    expect(
      given().when({ type: 'CreateVehicle', vehicleId: VEHICLE_ID, instanceId: INSTANCE_ID, customerId: CUSTOMER_ID, fields })(),
    ).toEqual([created]);
  });

  test('a vehicle with nothing that identifies it is refused', () => {
    expect(
      given().when({
        type: 'CreateVehicle',
        vehicleId: VEHICLE_ID,
        instanceId: INSTANCE_ID,
        customerId: CUSTOMER_ID,
        fields: { ...EMPTY_VEHICLE_FIELDS, color: 'Red' },
      }),
    ).toThrow(/at least one of year, make, model, VIN or plate/);
  });

  test('an update records only what changed, with old and new values and the label after it', () => {
    expect(
      given(created).when({ type: 'UpdateVehicle', instanceId: INSTANCE_ID, changes: { year: 2016, make: 'Ford', plate: 'ABC123' } })(),
    ).toEqual([
      {
        type: 'VehicleUpdated',
        data: {
          vehicleId: VEHICLE_ID,
          label: '2016 Ford F-150',
          changes: [
            { field: 'year', oldValue: 2015, newValue: 2016 },
            { field: 'plate', oldValue: '', newValue: 'ABC123' },
          ],
        },
      },
    ]);
    expect(given(created).when({ type: 'UpdateVehicle', instanceId: INSTANCE_ID, changes: { make: 'Ford' } })()).toEqual([]);
  });

  test("another instance's vehicle is not found", () => {
    expect(given(created).when({ type: 'UpdateVehicle', instanceId: OTHER_INSTANCE, changes: { make: 'Kia' } })).toThrow(
      'Vehicle not found',
    );
    expect(given(created).when({ type: 'DeleteVehicle', instanceId: OTHER_INSTANCE })).toThrow('Vehicle not found');
  });

  test('mileage: the first reading, a higher one, the same one (nothing), a lower one only with a reason', () => {
    const record = (mileage: number, lowerReason?: string): VehicleCommand => ({
      type: 'RecordMileage',
      instanceId: INSTANCE_ID,
      mileage,
      jobId: JOB_ID,
      ...(lowerReason ? { lowerReason } : {}),
    });
    expect(given(created).when(record(50_000))()).toEqual([read(50_000, null)]);
    expect(given(created, read(50_000, null)).when(record(52_000))()).toEqual([read(52_000, 50_000)]);
    expect(given(created, read(50_000, null)).when(record(50_000))()).toEqual([]);
    expect(given(created, read(50_000, null)).when(record(40_000))).toThrow(/lower than this vehicle's last reading, 50,000/);
    expect(given(created, read(50_000, null)).when(record(40_000, '  '))).toThrow(/Confirm it with a reason/);
    expect(given(created, read(50_000, null)).when(record(12, 'Odometer replaced'))()).toEqual([
      { type: 'VehicleMileageRecorded', data: { ...readData(12, 50_000), lowerReason: 'Odometer replaced' } },
    ]);
    // After a confirmed lower reading, that reading is the one to go by.
    const swapped: VehicleEvent = { type: 'VehicleMileageRecorded', data: { ...readData(12, 50_000), lowerReason: 'Odometer replaced' } };
    expect(given(created, read(50_000, null), swapped).when(record(900))()).toEqual([read(900, 12)]);
  });

  test('moved to another customer, and back', () => {
    const OTHER = '00000000-0000-4000-8000-000000000c02';
    const moved: VehicleEvent = {
      type: 'VehicleMoved',
      data: { vehicleId: VEHICLE_ID, label: '2015 Ford F-150', fromCustomerId: CUSTOMER_ID, toCustomerId: OTHER, mergeId: 'm1' },
    };
    expect(given(created).when({ type: 'MoveVehicle', instanceId: INSTANCE_ID, toCustomerId: OTHER, mergeId: 'm1' })()).toEqual([moved]);
    expect(given(created, moved).when({ type: 'MoveVehicle', instanceId: INSTANCE_ID, toCustomerId: OTHER, mergeId: 'm1' })()).toEqual([]);
  });

  test('deleted: gone for every later command', () => {
    const deleted: VehicleEvent = {
      type: 'VehicleDeleted',
      data: { vehicleId: VEHICLE_ID, label: '2015 Ford F-150', customerId: CUSTOMER_ID },
    };
    expect(given(created).when({ type: 'DeleteVehicle', instanceId: INSTANCE_ID })()).toEqual([deleted]);
    expect(given(created, deleted).when({ type: 'UpdateVehicle', instanceId: INSTANCE_ID, changes: { make: 'Kia' } })).toThrow(
      'Vehicle not found',
    );
  });

  test("restored with its customer: only one its customer's deletion deleted, as it was, its VIN left behind when asked", () => {
    const withVin: VehicleEvent = { ...created, data: { ...created.data, vin: '1FTFW1ET9DFC20001' } } as VehicleEvent;
    const withCustomer: VehicleEvent = {
      type: 'VehicleDeleted',
      data: { vehicleId: VEHICLE_ID, label: '2015 Ford F-150', customerId: CUSTOMER_ID, reason: 'customer-deleted' },
    };
    const onItsOwn: VehicleEvent = {
      type: 'VehicleDeleted',
      data: { vehicleId: VEHICLE_ID, label: '2015 Ford F-150', customerId: CUSTOMER_ID },
    };
    expect(given(withVin, read(1200, null)).when({ type: 'DeleteVehicle', instanceId: INSTANCE_ID, reason: 'customer-deleted' })()).toEqual(
      [withCustomer],
    );
    const restore: VehicleCommand = {
      type: 'RestoreVehicle',
      instanceId: INSTANCE_ID,
      customerId: CUSTOMER_ID,
      createdAt: '2026-01-02T03:04:05.000Z',
      createdBy: 'Owner',
    };
    const restored: VehicleEvent = {
      type: 'VehicleRestored',
      data: {
        vehicleId: VEHICLE_ID,
        label: '2015 Ford F-150',
        instanceId: INSTANCE_ID,
        customerId: CUSTOMER_ID,
        ...fields,
        vin: '1FTFW1ET9DFC20001',
        lastMileage: 1200,
        createdAt: '2026-01-02T03:04:05.000Z',
        createdBy: 'Owner',
      },
    };
    expect(given(withVin, read(1200, null), withCustomer).when(restore)()).toEqual([restored]);
    expect(given(withVin, read(1200, null), withCustomer).when({ ...restore, withoutVin: true })()).toEqual([
      { ...restored, data: { ...restored.data, vin: '', vinNotRestored: '1FTFW1ET9DFC20001' } },
    ]);
    // Back: live again, as it was deleted.
    const state = [withVin, read(1200, null), withCustomer, restored].reduce(vehicleDecider.evolve, vehicleDecider.initialState);
    expect(state).toEqual([withVin, read(1200, null)].reduce(vehicleDecider.evolve, vehicleDecider.initialState));
    // Back already, deleted on its own, or another customer's restore: nothing to bring back.
    expect(given(withVin, withCustomer, restored).when(restore)()).toEqual([]);
    expect(given(withVin, onItsOwn).when(restore)()).toEqual([]);
    expect(given(withVin, withCustomer).when({ ...restore, customerId: 'another' })()).toEqual([]);
    expect(given(withVin, withCustomer).when({ ...restore, instanceId: OTHER_INSTANCE })).toThrow('Vehicle not found');
    // Named by its VIN alone, it cannot come back without it.
    const vinOnly: VehicleEvent = {
      type: 'VehicleCreated',
      data: { vehicleId: VEHICLE_ID, instanceId: INSTANCE_ID, customerId: CUSTOMER_ID, ...EMPTY_VEHICLE_FIELDS, vin: '1FTFW1ET9DFC20001' },
    };
    expect(given(vinOnly, withCustomer).when({ ...restore, withoutVin: true })).toThrow('nothing else to name it by');
  });
});
