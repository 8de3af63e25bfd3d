import { ESTIMATE_STATUSES, formatDateTime } from '@crm/projections/contract';
import { describe, expect, test } from 'vitest';
import { estimateSentText } from '../src/features/pipeline/utils/estimate-texts.ts';

describe("the estimate panel's sent line", () => {
  const base = { version: 2, sentAt: '2026-12-01T15:00:00.000Z', sentBy: 'Ann Admin', expiresAt: '2026-12-08T15:00:00.000Z' };
  const sent = `Version 2 sent ${formatDateTime(base.sentAt)} by Ann Admin`;

  test('an open link expires; a link that ran out expired', () => {
    expect(estimateSentText({ ...base, status: 'sent' })).toBe(`${sent}; the link expires ${formatDateTime(base.expiresAt)}.`);
    expect(estimateSentText({ ...base, status: 'expired' })).toBe(`${sent}; the link expired ${formatDateTime(base.expiresAt)}.`);
  });

  test('an answered, revoked or replaced version does not tell its end date as past', () => {
    for (const status of ESTIMATE_STATUSES.filter((s) => s !== 'sent' && s !== 'expired')) {
      const text = estimateSentText({ ...base, status });
      expect(text, status).toBe(`${sent}.`);
      expect(text).not.toMatch(/good until|expire/);
    }
  });

  test('no sender: the line leaves "by" out', () => {
    expect(estimateSentText({ ...base, sentBy: null, status: 'approved' })).toBe(`Version 2 sent ${formatDateTime(base.sentAt)}.`);
  });
});
