import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, test } from 'vitest';
import { setDisplayTimeZone } from '@crm/projections/contract';
import { formatHours, weekOf } from '../src/features/insights/components/insights-charts';
import { JobsBehind } from '../src/features/insights/components/insights-screen';

describe('formatHours (the insights axis and figures)', () => {
  test('ticks of an axis spanning a minute and a half read as different labels', () => {
    // recharts' ticks for 0..1.5 minutes, in hours.
    const ticks = [0, 0.00625, 0.0125, 0.01875, 0.025].map(formatHours);
    expect(ticks).toEqual(['0 min', '0.4 min', '0.8 min', '1.1 min', '1.5 min']);
    expect(new Set(ticks).size).toBe(ticks.length);
  });

  test('minutes, hours and days as before past ten minutes', () => {
    expect(formatHours(0.75)).toBe('45 min');
    expect(formatHours(5.5)).toBe('5.5 h');
    expect(formatHours(76.8)).toBe('3.2 d');
  });
});

describe('weekOf (the weekly charts: their tooltips and the words a screen reader hears)', () => {
  test('a week is named by its first day through the one date formatter, the same day in any zone', () => {
    for (const zone of ['Pacific/Honolulu', 'Pacific/Kiritimati']) {
      setDisplayTimeZone(zone);
      expect(weekOf('2026-11-09'), zone).toBe('Week of Nov 9, 2026');
    }
    setDisplayTimeZone(undefined);
  });
});

describe('the jobs behind a figure', () => {
  const jobs = [1, 2, 3].map((n) => ({ id: `job-${n}`, jobNumber: String(n), name: `Customer ${n}` }));
  const render = (total?: number) =>
    renderToStaticMarkup(
      createElement(
        MemoryRouter,
        null,
        createElement(JobsBehind, {
          jobs,
          pipelinePath: '/crm/demo/pipeline',
          label: 'Quoted jobs',
          ...(total === undefined ? {} : { total }),
        }),
      ),
    ).replace(/<!-- -->/g, '');

  test("a cut list counts what the figure counts and says how many more there are, never 'Quoted jobs (200)' beside 269", () => {
    const html = render(5);
    expect(html).toContain('Quoted jobs (5)');
    expect(html).toContain('and 2 more');
    expect(html.match(/href="\/crm\/demo\/pipeline\?job=job-\d"/g)).toHaveLength(3);
  });

  test("a list at the server's limit whose count is not known says it is the first ones listed, not a count", () => {
    const many = Array.from({ length: 200 }, (_, n) => ({ id: `job-${n}`, jobNumber: String(n), name: '' }));
    const html = renderToStaticMarkup(
      createElement(MemoryRouter, null, createElement(JobsBehind, { jobs: many, pipelinePath: '/p', label: 'Quote: 245 stays' })),
    ).replace(/<!-- -->/g, '');
    expect(html).toContain('Quote: 245 stays (first 200 listed)');
  });

  test('a whole list counts its jobs and adds nothing', () => {
    const html = render();
    expect(html).toContain('Quoted jobs (3)');
    expect(html).not.toContain('more');
  });
});
