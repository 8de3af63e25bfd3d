import {
  EMPTY_VALUE,
  formatChangeValue as formatHistoryValue,
  formatDuration,
  formatQuote,
  historyActionLabel,
  parseQuote,
  type JobView,
} from '@crm/projections/contract';
import { describe, expect, test } from 'vitest';
import { ApiError, apiErrorFromResponse } from '../src/lib/api-error.ts';
import { fromDateTimeLocalValue, toDateTimeLocalValue } from '../src/features/pipeline/utils/date-time.ts';
import {
  emptyEntryForm,
  entryFormFromJob,
  entryPayload,
  entryProblem,
  sameEntryFields,
} from '../src/features/pipeline/utils/entry-form.ts';
import { entryDialogTitle, jobLabel } from '../src/features/pipeline/utils/entry-title.ts';
import { historyFieldLabel } from '../src/features/pipeline/utils/history-format.ts';
import { emptyText, pipelineErrorText, showingText } from '../src/features/pipeline/utils/list-texts.ts';
import { saveErrorText } from '../src/features/pipeline/utils/save-error.ts';
import { summariseVehicles } from '../src/features/pipeline/utils/vehicle-badges.ts';

const job: JobView = {
  id: '3f0c7a52-2b1e-4c55-9f7c-1a2b3c4d5e6f',
  jobNumber: '1042',
  name: 'Dana Diaz',
  phone: '5551234567',
  part: 'Brake pads',
  makeModel: '2018 Toyota Camry',
  quote: '1250',
  stage: 'Parts Ordered',
  vin: '1HGCM82633A004352',
  csr: 'Sam',
  jobType: 'In Shop',
  appointment: '2025-03-01T09:00:30.000Z',
  duration: 90,
  tech: 'Alex',
  notes: 'Front only',
  customerId: '9b2f4c1e-0000-4000-8000-000000000001',
  createdAt: '2025-02-20T10:00:00.000Z',
  createdBy: 'Sam',
  updatedAt: '2025-02-21T10:00:00.000Z',
  revision: 4,
};

describe('quote formatting', () => {
  test('$ and the integer value with thousands separators; empty counts as $0', () => {
    expect(formatQuote('1234')).toBe('$1,234');
    expect(formatQuote('1234567')).toBe('$1,234,567');
    expect(formatQuote('999')).toBe('$999');
    expect(formatQuote('')).toBe('$0');
    expect(formatQuote(null)).toBe('$0');
    expect(formatQuote('0042')).toBe('$42');
  });

  test('cents show when there are any', () => {
    expect(formatQuote('89.95')).toBe('$89.95');
    expect(formatQuote('1250.5')).toBe('$1,250.50');
    expect(formatQuote(1250.5)).toBe('$1,250.50');
    expect(formatQuote('1250.00')).toBe('$1,250');
  });

  test('what is typed is read whole, never stripped: 1,250.50 stays $1,250.50', () => {
    expect(parseQuote('1,250.50')).toEqual({ dollars: 1250.5 });
    expect(parseQuote('$89.95')).toEqual({ dollars: 89.95 });
    expect(parseQuote('  42 ')).toEqual({ dollars: 42 });
    for (const refused of ['12,50', '1.234', 'abc', '1,25', '-5', '12.5.0']) {
      expect(parseQuote(refused)).toEqual({ message: expect.stringContaining('Quote must be an amount in dollars') });
    }
  });
});

describe('a newer version the entry form cannot tell apart', () => {
  test('a change outside the form (a revision more, a line total) is the same entry; a field the form shows is not', () => {
    expect(sameEntryFields(job, { ...job, revision: job.revision + 3 })).toBe(true);
    expect(sameEntryFields(job, { ...job, part: `${job.part} and rotors` })).toBe(false);
    expect(sameEntryFields(job, { ...job, stage: job.stage === 'Paid' ? 'Quote' : 'Paid' })).toBe(false);
    expect(sameEntryFields(job, { ...job, quote: '999.99' })).toBe(false);
  });
});

describe('dialog title rule', () => {
  test('a new entry is "Add New Entry"', () => {
    expect(entryDialogTitle(null)).toBe('Add New Entry');
  });

  test('an entry with a name is "Edit {name}"', () => {
    expect(entryDialogTitle(job)).toBe('Edit Dana Diaz');
    expect(entryDialogTitle({ ...job, name: '  Dana  ' })).toBe('Edit Dana');
  });

  test('without a name it is "Edit Entry #{job number}", the id only when there is no number', () => {
    expect(entryDialogTitle({ ...job, name: '' })).toBe('Edit Entry #1042');
    expect(entryDialogTitle({ ...job, name: ' ', jobNumber: '' })).toBe(`Edit Entry #${job.id}`);
    expect(jobLabel({ ...job, name: '' })).toBe('Entry #1042');
  });
});

describe('autocomplete vehicle badges', () => {
  test('up to two badges, then "+N more"', () => {
    expect(summariseVehicles([])).toEqual({ shown: [], more: null });
    expect(summariseVehicles(['2018 Camry'])).toEqual({ shown: ['2018 Camry'], more: null });
    expect(summariseVehicles(['A', 'B'])).toEqual({ shown: ['A', 'B'], more: null });
    expect(summariseVehicles(['A', 'B', 'C'])).toEqual({ shown: ['A', 'B'], more: '+1 more' });
    expect(summariseVehicles(['A', 'B', 'C', 'D', 'E'])).toEqual({ shown: ['A', 'B'], more: '+3 more' });
  });

  test('blank vehicles are not counted', () => {
    expect(summariseVehicles([' ', 'A', '', 'B', 'C'])).toEqual({ shown: ['A', 'B'], more: '+1 more' });
  });
});

describe('entry form', () => {
  test('a new entry starts in Quote, created now, with the signed-in user as CSR', () => {
    const now = new Date('2025-05-05T12:00:00Z');
    const form = emptyEntryForm('Sam Speedy', now);
    expect(form).toMatchObject({ stage: 'Quote', csr: 'Sam Speedy', createdAt: now.toISOString(), name: '', customerId: null });
  });

  test('a job read on its own fills the form: phone grouped, appointment for the datetime-local box', () => {
    const form = entryFormFromJob(job);
    expect(form.phone).toBe('555-123-4567');
    expect(form.appointment).toBe(toDateTimeLocalValue(job.appointment));
    expect(form.duration).toBe('90');
  });

  test('the payload sends digits, upper-case VIN and an untouched appointment exactly as it was', () => {
    const form = { ...entryFormFromJob(job), vin: 'abc123' };
    const payload = entryPayload(form, job);
    expect(payload).toMatchObject({ phone: '5551234567', vin: 'ABC123', appointment: job.appointment, customerId: job.customerId });
  });

  test('a changed appointment is sent as an ISO time; a cleared one as empty', () => {
    const form = { ...entryFormFromJob(job), appointment: '2025-04-02T14:15' };
    expect(entryPayload(form, job).appointment).toBe(new Date('2025-04-02T14:15').toISOString());
    expect(entryPayload({ ...form, appointment: '' }, job).appointment).toBe('');
  });

  test("an empty entry is refused with the shared schema's message", () => {
    expect(entryProblem(entryPayload(emptyEntryForm('')))).toBe('At least one field must be filled out');
    expect(entryProblem(entryPayload({ ...emptyEntryForm(''), part: 'Rotor' }))).toBeNull();
  });
});

describe('datetime-local conversion', () => {
  test('round-trips a local minute', () => {
    const iso = fromDateTimeLocalValue('2025-03-01T09:15');
    expect(toDateTimeLocalValue(iso)).toBe('2025-03-01T09:15');
  });

  test('empty and invalid values become empty', () => {
    expect(toDateTimeLocalValue('')).toBe('');
    expect(toDateTimeLocalValue('not a date')).toBe('');
    expect(fromDateTimeLocalValue('')).toBe('');
  });

  test('durations read as hours and minutes', () => {
    expect(formatDuration(30)).toBe('30 min');
    expect(formatDuration(60)).toBe('1 h');
    expect(formatDuration(90)).toBe('1 h 30 min');
    expect(formatDuration(null)).toBe('');
  });
});

describe('save errors', () => {
  test('the server message is preferred', () => {
    const error = new ApiError(409, 'This job was changed by someone else.', { message: 'This job was changed by someone else.' });
    expect(saveErrorText(error, 'update')).toBe('This job was changed by someone else.');
  });

  test('without one: Failed to create entry / Failed to update entry', () => {
    expect(saveErrorText(new ApiError(500, '500: Internal Server Error'), 'create')).toBe('Failed to create entry');
    expect(saveErrorText(new ApiError(502, '502: Bad Gateway'), 'update')).toBe('Failed to update entry');
  });

  test('a thrown (network) error: An error occurred while saving', () => {
    expect(saveErrorText(new TypeError('Failed to fetch'), 'create')).toBe('An error occurred while saving');
  });
});

describe('list texts', () => {
  test('footer and empty state carry the search text', () => {
    expect(showingText(3, 10, '')).toBe('Showing 3 of 10 entries');
    expect(showingText(1, 1, 'brake')).toBe('Showing 1 of 1 entries matching "brake"');
    expect(emptyText('')).toBe('No entries found');
    expect(emptyText('zzz')).toBe('No entries found matching "zzz"');
  });

  test('load errors: Not authenticated on 401, Error: {message} otherwise', () => {
    expect(pipelineErrorText(new ApiError(401, 'Unauthorized', { message: 'Sign in first' }))).toBe('Not authenticated');
    expect(pipelineErrorText(apiErrorFromResponse(500, 'Internal Server Error', '{"message":"Database down"}'))).toBe(
      'Error: Database down',
    );
    expect(pipelineErrorText(apiErrorFromResponse(502, 'Bad Gateway', ''))).toBe('Error: Failed to fetch entries');
    expect(pipelineErrorText(new TypeError('Failed to fetch'))).toBe('Error: An error occurred while fetching the data');
  });
});

describe('history values', () => {
  test('fields and actions in words', () => {
    expect(historyFieldLabel('makeModel')).toBe('Vehicle');
    expect(historyFieldLabel('somethingNew')).toBe('Something new');
    expect(historyFieldLabel('Ceramic pad set (part): unitPrice')).toBe('Ceramic pad set (part): unit price');
    expect(historyActionLabel('stage-changed')).toBe('Stage changed');
    expect(historyActionLabel('merged')).toBe('Merged');
  });

  test('values formatted per field, empty shown as such', () => {
    expect(formatHistoryValue('phone', '5551234567')).toBe('555-123-4567');
    expect(formatHistoryValue('quote', '1500')).toBe('$1,500');
    expect(formatHistoryValue('quote', '')).toBe(EMPTY_VALUE);
    expect(formatHistoryValue('duration', 90)).toBe('1 h 30 min');
    expect(formatHistoryValue('name', null)).toBe(EMPTY_VALUE);
    // An instance's features (the audit log and the instance's history alike): the ones on, by name.
    expect(formatHistoryValue('features', { pipeline: true, customers: false, calendar: true, admin: false, serviceRequests: true })).toBe(
      'Pipeline, Calendar, Service Requests',
    );
    expect(
      formatHistoryValue('features', { pipeline: false, customers: false, calendar: false, admin: false, serviceRequests: false }),
    ).toBe('None');
    expect(formatHistoryValue('stage', 'Paid')).toBe('Paid');
  });

  test("mileage reads grouped, as the job and vehicle screens show it ('120,000', not '120000')", () => {
    expect(formatHistoryValue('mileageIn', 120000)).toBe('120,000');
    expect(formatHistoryValue('mileageOut', '120450')).toBe('120,450');
    expect(formatHistoryValue('mileage', 9999999)).toBe('9,999,999');
    expect(formatHistoryValue('mileageIn', 0)).toBe('0');
    expect(formatHistoryValue('mileageIn', null)).toBe(EMPTY_VALUE);
  });

  test('payments, refunds, invoice and estimate totals and line prices read in dollars, not as bare decimals', () => {
    expect(formatHistoryValue('payment', '128.16')).toBe('$128.16');
    expect(formatHistoryValue('refund', '-1250.00')).toBe('-$1,250.00');
    expect(formatHistoryValue('invoice total', '508.27')).toBe('$508.27');
    expect(formatHistoryValue('estimate', 'version 2, 1462.89')).toBe('version 2, $1,462.89');
    expect(formatHistoryValue('estimate', 'revoked')).toBe('revoked');
    expect(formatHistoryValue('Brake pads (part): unitPrice', '43.95')).toBe('$43.95');
    expect(formatHistoryValue('Brake pads (part): quantity', '2')).toBe('2');
    expect(formatHistoryValue('Payment method', 'card')).toBe('card');
  });
});
