import { describe, expect, test } from 'vitest';
import { boardColumns } from '../src/features/pipeline/components/board/pipeline-board.tsx';
import { neighbourStage } from '../src/features/pipeline/components/board/board-stages.ts';
import { filtersFromParams, pipelineParams, viewFromParams } from '../src/features/pipeline/utils/pipeline-url.ts';

describe('the pipeline in the address', () => {
  test('plain address: the defaults, and no view (the screen picks by width)', () => {
    const params = new URLSearchParams('');
    expect(filtersFromParams(params)).toEqual({ search: '', sort: 'stage', stage: null, showCanceled: false });
    expect(viewFromParams(params)).toBeNull();
  });

  test('filters and view go in and come back out; defaults are left out; other params stay', () => {
    const written = pipelineParams(
      new URLSearchParams('other=1'),
      { search: 'brake pads', sort: 'newest', stage: 'Parts In', showCanceled: false },
      'board',
    );
    expect(written.toString()).toBe('other=1&q=brake+pads&sort=newest&stage=Parts+In&view=board');
    expect(filtersFromParams(written)).toEqual({ search: 'brake pads', sort: 'newest', stage: 'Parts In', showCanceled: false });
    expect(viewFromParams(written)).toBe('board');
    const plain = pipelineParams(written, { search: '', sort: 'stage', stage: null, showCanceled: true }, null);
    expect(plain.toString()).toBe('other=1&canceled=1');
  });

  test('what is none of ours is read as the default: an unknown sort or view, a stage alias is normalised', () => {
    const params = new URLSearchParams('sort=sideways&view=grid&stage=quoted&canceled=yes');
    expect(filtersFromParams(params)).toEqual({ search: '', sort: 'stage', stage: 'Quote', showCanceled: false });
    expect(viewFromParams(params)).toBeNull();
    expect(filtersFromParams(new URLSearchParams('stage=nonsense')).stage).toBeNull();
  });
});

describe('the board', () => {
  test('columns: the eight board stages, Canceled only when asked, a chosen stage alone', () => {
    expect(boardColumns(null, false)).toEqual([
      'Quote',
      'Parts Ordered',
      'Parts In',
      'Scheduled',
      'In Progress',
      'Completed',
      'Invoiced',
      'Paid',
    ]);
    expect(boardColumns(null, true).at(-1)).toBe('Canceled');
    expect(boardColumns('Scheduled', true)).toEqual(['Scheduled']);
  });

  test('the keys move one stage along the board, not past its ends, and not from Canceled', () => {
    expect(neighbourStage('Quote', 1)).toBe('Parts Ordered');
    expect(neighbourStage('Quote', -1)).toBeNull();
    expect(neighbourStage('Paid', 1)).toBeNull();
    expect(neighbourStage('Paid', -1)).toBe('Invoiced');
    expect(neighbourStage('Canceled', 1)).toBeNull();
  });
});
