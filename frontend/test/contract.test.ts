import { jobPageSchema, jobViewSchema, type JobView } from '@crm/projections/contract';
import { describe, expect, test } from 'vitest';

const job: JobView = {
  id: '5b0c2a52-8f0e-4c7a-9d7e-0a4c1f0e9b11',
  jobNumber: '12',
  name: 'Ann Lee',
  phone: '•••-•••-4567',
  part: 'Brake pads',
  makeModel: '2018 Toyota Camry',
  quote: '89.95',
  stage: 'Parts Ordered',
  vin: '',
  csr: 'Chris',
  jobType: 'In Shop',
  appointment: '',
  duration: null,
  tech: '',
  notes: '',
  customerId: null,
  createdAt: '2025-01-31T14:00:00.000Z',
  createdBy: 'Chris',
  updatedAt: '2025-01-31T14:00:00.000Z',
  revision: 0,
};

describe('the screens parse answers with the schemas the server answers with', () => {
  test('a job as the server sends it parses unchanged', () => {
    expect(jobViewSchema.parse(job)).toEqual(job);
    expect(jobPageSchema.parse({ items: [job], nextCursor: null, total: 1 }).items).toEqual([job]);
  });

  test('an unknown stage is an error, never Quote in disguise', () => {
    expect(jobViewSchema.safeParse({ ...job, stage: 'Approved' }).success).toBe(false);
    expect(jobViewSchema.safeParse({ ...job, stage: 'parts ordered' }).success).toBe(false);
    expect(jobViewSchema.safeParse({ ...job, stage: null }).success).toBe(false);
  });
});
