import { BOARD_STAGES, type Stage } from '@crm/projections/pipeline';

/** The stage before (-1) or after (+1) on the board; none past either end, and none for Canceled (Reopen or the menu bring it back). */
export function neighbourStage(stage: Stage, step: -1 | 1): Stage | null {
  const at = (BOARD_STAGES as readonly Stage[]).indexOf(stage);
  if (at < 0) return null;
  return BOARD_STAGES[at + step] ?? null;
}
