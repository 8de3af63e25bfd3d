import { jobInput, STAGES, JOB_TYPES, WORK_DONE_STAGES, type Stage } from '@crm/projections/pipeline';
import { cancelJob, changeJobStage, createJob } from './pipeline/index.ts';
import { after, pastSlot as pastSlotIn, workingSlot } from './seed-clock.ts';
import { seedEstimateDecided, seedEstimateSent, seedInvoice, seedLines, seedPayment } from './seed-repair-orders.ts';
import { DURATIONS, NOTES, PARTS, pick, VEHICLES, type SeededCustomer, type SeedPlan } from './seed-timeline.ts';

/** Stages that are not booked yet: no appointment. */
const UNBOOKED_STAGES = new Set<Stage>(['Quote', 'Parts Ordered', 'Canceled']);

/** A stage path in order: every job walks it from Quote to where it stands now (Canceled: Quote, then canceled). */
const WORK_STAGES = STAGES.filter((stage) => stage !== 'Canceled');

/**
 * The jobs: each for one of the customers (or a walk-in), walking the stages from Quote to
 * where it stands now over the history; booked ones have an appointment (past for work done,
 * the coming weeks for the rest). Most are itemized, with an estimate answered, the invoice
 * and payments.
 */
export function planJobs(plan: SeedPlan, customers: SeededCustomer[], jobCount: number): void {
  const { deps, instanceId, timeZone, historyDays: HISTORY_DAYS, timeline } = plan;
  const pastSlot = (daysAgo: number, i: number) => pastSlotIn(daysAgo, i, timeZone);
  for (let i = 0; i < jobCount; i++) {
    // A job carries its customer's name, phone and vehicle, as the entry dialog fills them in.
    const customer = customers.length ? customers[i % customers.length]! : null;
    const finalStage = pick(STAGES, i);
    const round = Math.floor(i / STAGES.length);
    // Asked for some time after the customer came (or at any time, for walk-ins), spread over the history.
    const oldest = customer ? customer.since : HISTORY_DAYS;
    const createdDaysAgo = Math.max(2, oldest - ((i * 7) % Math.max(1, oldest)));
    const path: Stage[] = finalStage === 'Canceled' ? ['Quote'] : WORK_STAGES.slice(0, WORK_STAGES.indexOf(finalStage) + 1);
    // Each later stage a working day or few after the one before, all before today.
    const gap = Math.max(1, Math.min(4, Math.floor((createdDaysAgo - 1) / Math.max(1, path.length))));
    const stageDays = path.map((_, step) => createdDaysAgo - step * gap);
    const doneAt = finalStage === 'Canceled' ? null : stageDays[Math.min(path.length - 1, WORK_STAGES.indexOf('Completed'))]!;
    const appointment = UNBOOKED_STAGES.has(finalStage)
      ? null
      : WORK_DONE_STAGES.has(finalStage) && doneAt !== null
        ? pastSlot(doneAt, i + round)
        : workingSlot(round % 18, i + round, timeZone);
    const job = { id: '' };
    // After its customer's record exists, so the job links to it (and never makes a second one).
    let last = after(customer?.at ?? null, pastSlot(createdDaysAgo, i + 1));
    timeline.push({
      at: last,
      by: 'csr',
      run: async (ctx) => {
        const fields = jobInput.parse({
          name: customer?.name ?? `Walk-in ${i + 1}`,
          phone: customer?.phone ?? `555${String(2_000_000 + i).slice(-7)}`,
          customerId: customer?.id,
          vehicleId: customer?.vehicleId || undefined,
          part: pick(PARTS, i),
          makeModel: customer?.vehicle ?? pick(VEHICLES, i),
          // Some quotes carry cents, as real ones do.
          quote: i % 3 === 0 ? `${80 + ((i * 37) % 900)}.95` : String(80 + ((i * 37) % 900)),
          stage: 'Quote',
          jobType: pick(JOB_TYPES, i),
          csr: 'Chris CSR',
          tech: 'Terry Tech',
          appointment: appointment?.toISOString() ?? null,
          duration: appointment ? pick(DURATIONS, i) : null,
          notes: pick(NOTES, i),
        });
        job.id = (await createJob(deps, fields, ctx)).jobId;
      },
    });
    // Most jobs are itemized: lines, then (past Quote, and some quotes) an estimate the
    // customer answers; invoicing and payment move them to Invoiced and Paid.
    const itemized = i % 5 !== 4;
    const minutes = (at: Date, n: number) => new Date(at.getTime() + n * 60_000);
    if (itemized) {
      last = minutes(last, 30);
      timeline.push({ at: last, by: 'csr', run: (ctx) => seedLines(deps, job.id, pick(PARTS, i), i, ctx) });
      if (finalStage !== 'Canceled' && (path.length > 1 || i % 2 === 0)) {
        last = minutes(last, 30);
        timeline.push({ at: last, by: 'csr', run: (ctx) => seedEstimateSent(deps, job.id, ctx) });
        // Some quotes wait for their answer.
        if (path.length > 1 || i % 4 !== 0) {
          const name = customer?.name ?? `Walk-in ${i + 1}`;
          timeline.push({ at: minutes(last, 120), by: 'csr', run: (ctx) => seedEstimateDecided(deps, job.id, name, i, ctx) });
        }
      }
    }
    path.slice(1).forEach((stage, step) => {
      last = after(last, pastSlot(stageDays[step + 1]!, i + step + 2));
      timeline.push({
        at: last,
        by: stage === 'In Progress' || stage === 'Completed' ? 'tech' : 'csr',
        run: (ctx) =>
          itemized && stage === 'Invoiced'
            ? seedInvoice(deps, job.id, ctx)
            : itemized && stage === 'Paid'
              ? seedPayment(deps, job.id, 1, i, ctx)
              : changeJobStage(deps, { instanceId, jobId: job.id }, stage, ctx),
      });
    });
    // Some invoiced jobs have a deposit on them.
    if (itemized && finalStage === 'Invoiced' && i % 2 === 0) {
      timeline.push({ at: minutes(last, 120), by: 'csr', run: (ctx) => seedPayment(deps, job.id, 0.5, i, ctx) });
    }
    if (finalStage === 'Canceled') {
      timeline.push({
        at: after(last, pastSlot(Math.max(1, createdDaysAgo - 3), i + 2)),
        by: 'csr',
        run: (ctx) => cancelJob(deps, { instanceId, jobId: job.id }, ctx),
      });
    }
  }
}
