import { emptyLineDraft, lineProblems, type LineDraft } from '../../utils/line-draft';

/** Where the cursor goes in the lines editor, and whether a new line was typed into. */

/** What a person puts the cursor in on purpose. */
const CONTROLS = 'input, select, textarea, button, [role="combobox"]';

/** The first box of a line, where the cursor goes when the line is added. */
export const FIRST_FIELD = 'description';

/**
 * Focuses the element with this id; with `leftIn`, only if the cursor is still there or was
 * dropped (on the page or the dialog, as when a row is redrawn), not put in another control.
 */
export function focusIfLeft(id: string, leftIn?: Element): void {
  const active = document.activeElement;
  if (leftIn && active && active !== leftIn && active.matches(CONTROLS)) return;
  document.getElementById(id)?.focus();
}

/** The box of the first thing the server would refuse in a line, to put the cursor there. */
export function firstProblemField(draft: LineDraft): string {
  const field = Object.keys(lineProblems(draft) ?? {})[0] ?? FIRST_FIELD;
  return field === 'amount' || field === 'percent' ? field : field in draft ? field : FIRST_FIELD;
}

/** Whether anything was typed into a new line beyond what it starts with. */
export function linePayloadHasValues(draft: LineDraft): boolean {
  const fresh = emptyLineDraft(draft.kind);
  return (['description', 'partNumber', 'unitCost', 'unitPrice', 'hours', 'rate', 'technician', 'value'] as const).some(
    (field) => draft[field] !== fresh[field],
  );
}
