import { jobChangesInput } from '@crm/projections/pipeline';
import { SERVICE_TYPES, serviceRequestInput } from '@crm/projections/service-requests';
import { archiveServiceRequest, convertServiceRequest, submitServiceRequest } from './service-requests/index.ts';
import { after, isoDateIn, pastSlot as pastSlotIn, workingSlot } from './seed-clock.ts';
import { LAST, NOTES, pick, VEHICLES, type SeededCustomer, type SeedPlan } from './seed-timeline.ts';

/**
 * Service requests in every state over the last weeks: open (from the counter and the public
 * page), converted to a job, archived. A request from a known customer becomes that customer's
 * job; a new person's becomes a new customer once (no second record of the same person).
 */
export function planServiceRequests({ deps, timeZone, timeline }: SeedPlan, customers: SeededCustomer[], requestCount: number): void {
  const pastSlot = (daysAgo: number, i: number) => pastSlotIn(daysAgo, i, timeZone);
  const NEW_FIRST = ['Robin', 'Sky', 'Harper', 'Emery', 'Rowan', 'Sage', 'Reese', 'Kai'];
  for (let i = 0; i < requestCount; i++) {
    const known = i % 2 === 0 && customers.length > 0 ? customers[(i * 5) % customers.length]! : null;
    const name = known?.name ?? `${pick(NEW_FIRST, i)} ${pick(LAST, i + 3)}`;
    const vehicle = known?.vehicle ?? pick(VEHICLES, i + 2);
    const serviceType = pick(SERVICE_TYPES, i);
    const submittedDaysAgo = 1 + ((i * 3) % 20);
    const submitted = after(known?.at ?? null, pastSlot(submittedDaysAgo, i + 4));
    const wanted = isoDateIn(new Date(Date.now() + (1 + (i % 10)) * 86_400_000), timeZone);
    const source = i % 3 === 1 ? 'public' : 'staff';
    const request = { id: '' };
    timeline.push({
      at: submitted,
      by: 'csr',
      run: async (ctx) => {
        const fields = serviceRequestInput.parse({
          customerName: name,
          contactEmail: `${name.toLowerCase().replace(/[^a-z]+/g, '.')}@example.com`,
          vehicleType: vehicle,
          serviceType,
          scheduledDate: wanted,
          additionalNotes: pick(NOTES, i + 1),
        });
        request.id = (await submitServiceRequest(deps, fields, source, ctx)).id;
      },
    });
    const state = i % 4;
    const decided = after(submitted, pastSlot(Math.max(1, submittedDaysAgo - 1), i + 5));
    if (state === 2) {
      timeline.push({
        at: decided,
        by: 'csr',
        run: (ctx) =>
          convertServiceRequest(
            deps,
            request.id,
            jobChangesInput.parse({
              name,
              phone: known?.phone ?? `555${String(3_000_000 + i).slice(-7)}`,
              customerId: known?.id,
              vehicleId: known?.vehicleId || undefined,
              part: serviceType,
              makeModel: vehicle,
              stage: 'Scheduled',
              appointment: workingSlot(1 + (i % 10), i + 3, timeZone).toISOString(),
              duration: 60,
              csr: 'Chris CSR',
              tech: 'Terry Tech',
            }),
            ctx,
            timeZone,
          ),
      });
    } else if (state === 3) {
      timeline.push({ at: decided, by: 'csr', run: (ctx) => archiveServiceRequest(deps, request.id, ctx) });
    }
  }
}
