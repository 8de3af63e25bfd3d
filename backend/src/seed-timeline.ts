import type { AppDeps } from './deps.ts';
import { createCustomer } from './customers/index.ts';
import type { InstanceContext } from './shared/commands.ts';
import { addVehicle } from './vehicles/index.ts';
import { pastSlot } from './seed-clock.ts';

/**
 * One thing that happened in the shop, at its time, by one of its people. The seed lists them
 * all, then runs them oldest first through the real commands, each with its own time as the
 * command's clock; the events' recorded times are then set to those times (as an import keeps
 * them) and the read models rebuilt, so the history spans months. More kinds of records (repair
 * orders, invoices, payments) are added as more actions on the same timeline.
 */
export interface SeedAction {
  at: Date;
  by: SeedActor;
  run: (ctx: InstanceContext) => Promise<unknown>;
}
export type SeedActor = 'admin' | 'csr' | 'tech';

/** What every part of the seed's plan adds its actions to, and what it plans for. */
export interface SeedPlan {
  deps: AppDeps;
  instanceId: string;
  timeZone: string;
  /** How far back the shop's history goes (working days). */
  historyDays: number;
  timeline: SeedAction[];
}

export const FIRST = ['Alex', 'Sam', 'Jordan', 'Casey', 'Riley', 'Morgan', 'Taylor', 'Jamie', 'Drew', 'Quinn', 'Avery', 'Parker'];
export const LAST = ['Garcia', 'Nguyen', 'Smith', 'Patel', 'Johnson', 'Kim', 'Lopez', 'Brown', 'Davis', 'Wilson', 'Moore', 'Clark'];
export const VEHICLES = [
  '2018 Toyota Camry',
  '2015 Ford F-150',
  '2020 Honda Civic',
  '2012 Jeep Wrangler',
  '2019 Subaru Outback',
  '2016 Chevy Silverado',
];
export const PARTS = ['Brake pads', 'Alternator', 'Timing belt', 'Water pump', 'Starter motor', 'Oil change', 'Tire rotation', 'Radiator'];
export const DURATIONS = [30, 60, 60, 90, 120];
export const NOTES = [
  'Grinding noise when braking.',
  'Check engine light on since last week.',
  'Wants a quote before any work.',
  'Customer will wait in the lobby.',
  '',
];
export const pick = <T>(list: readonly T[], i: number): T => list[i % list.length]!;

export interface SeededCustomer {
  id: string;
  name: string;
  phone: string;
  vehicle: string;
  vehicleId: string;
  /** working days ago it came */
  since: number;
  at: Date;
}

/** The customers, each with its car as a vehicle record, arriving over the whole history. */
export function planCustomers({ deps, timeZone, historyDays: HISTORY_DAYS, timeline }: SeedPlan, customerCount: number): SeededCustomer[] {
  const customers: SeededCustomer[] = [];
  for (let i = 0; i < customerCount; i++) {
    const name = `${pick(FIRST, i)} ${pick(LAST, Math.floor(i / FIRST.length))}`;
    const phone = `555${String(1_000_000 + i).slice(-7)}`;
    const vehicle = pick(VEHICLES, i);
    // Customers arrive over the whole history, the first ones at the start.
    const since = HISTORY_DAYS - Math.floor((i * HISTORY_DAYS) / Math.max(1, customerCount));
    const customer = { id: '', name, phone, vehicle, vehicleId: '', since, at: pastSlot(since, i, timeZone) };
    customers.push(customer);
    timeline.push({
      at: customer.at,
      by: 'csr',
      run: async (ctx) => {
        // No typed-in invoice numbers: the invoices the seed issues are the customer's real ones
        // (numbered from 1001), and a made-up 'INV-1078' would name another customer's invoice.
        const { customerId } = await createCustomer(deps, { name, phone, address: `${100 + i} Main St`, vehicles: [vehicle] }, ctx);
        customer.id = customerId;
        // Its car as a vehicle record too, so the jobs, the vehicle page and the customer's
        // vehicles agree with the "2018 Toyota Camry" its jobs name.
        const [year, make, ...model] = vehicle.split(' ');
        const plate = `DM${String(1000 + i).slice(-4)}`;
        customer.vehicleId = (await addVehicle(deps, customerId, { year: Number(year), make, model: model.join(' '), plate }, ctx)).id;
      },
    });
  }
  return customers;
}
