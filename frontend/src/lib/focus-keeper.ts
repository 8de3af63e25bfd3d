/**
 * Focus is never lost. When the focused element leaves the page (a dialog closes, a list is read
 * again and its rows are drawn anew, a deleted record's row goes), the browser puts the focus
 * on <body>, and the next Tab starts again from the top of the page. This module puts it back:
 *
 * - on what opened the dialog, when the focused element was inside a dialog that closed;
 * - on the same control drawn anew (same `data-focus-key`, on the control or inside it, or
 *   else the same tag, role, name and text), when the list around it was redrawn;
 * - on the screen's heading, when that control does not come back within a moment (the
 *   record it belonged to was deleted).
 *
 * A click on an empty part of the page also leaves the focus on <body>, but there the focused
 * element is still on the page: nothing is done then.
 */

const DIALOG = '[role="dialog"], [role="alertdialog"]';
const FOCUSABLE = 'a[href], button, input, select, textarea, summary, [tabindex]';
/** How long a control may be missing (a list being read again) before the heading takes the focus. */
const WAIT_FOR_RETURN_MS = 1500;
/**
 * How long the page itself has to put the focus somewhere first: a screen that moves it on
 * purpose (the lines editor to the line Enter started, in its next animation frame) wins.
 */
const LET_THE_PAGE_MOVE_IT_MS = 120;

interface Mark {
  element: Element;
  key: string | null;
  signature: string;
  /** The dialog the element was in, if any. */
  dialog: Element | null;
}

function focusKeyOf(element: Element): string | null {
  return element.getAttribute('data-focus-key') ?? element.querySelector('[data-focus-key]')?.getAttribute('data-focus-key') ?? null;
}

function signatureOf(element: Element): string {
  const text = (element.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 120);
  return [element.tagName, element.getAttribute('role') ?? '', element.getAttribute('aria-label') ?? '', text].join('|');
}

function markOf(element: Element): Mark {
  return { element, key: focusKeyOf(element), signature: signatureOf(element), dialog: element.closest(DIALOG) };
}

function visible(element: Element): boolean {
  return element instanceof HTMLElement && element.getClientRects().length > 0;
}

/** The control on the page now that stands for `mark`'s element, if there is one. */
function findAgain(mark: Mark): HTMLElement | null {
  if (mark.element.isConnected) return visible(mark.element) ? (mark.element as HTMLElement) : null;
  if (mark.key) {
    for (const keyed of document.querySelectorAll(`[data-focus-key="${CSS.escape(mark.key)}"]`)) {
      const control = keyed.matches(FOCUSABLE) ? keyed : keyed.closest(FOCUSABLE);
      if (control && visible(control)) return control as HTMLElement;
    }
  }
  // Only one control alike: with several (the boxes of a list's rows), which one is a guess.
  const alike = [...document.querySelectorAll(mark.element.tagName)].filter(
    (candidate) => visible(candidate) && signatureOf(candidate) === mark.signature,
  );
  return alike.length === 1 ? (alike[0] as HTMLElement) : null;
}

/** The screen's heading, made focusable from script only (it stays out of the Tab order). */
function screenHeading(): HTMLElement | null {
  const heading = document.querySelector<HTMLElement>('main h1') ?? document.querySelector<HTMLElement>('h1');
  if (!heading) return null;
  if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
  return heading;
}

export function keepFocus(): () => void {
  let current: Mark | null = null;
  /** What opened each open dialog: the element focused just before the focus went into it. */
  const openers = new WeakMap<Element, Mark>();
  let lostSince: number | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const onFocusIn = (event: FocusEvent) => {
    if (!(event.target instanceof Element)) return;
    const next = markOf(event.target);
    if (next.dialog && current && current.dialog !== next.dialog && !next.dialog.contains(current.element) && !openers.has(next.dialog)) {
      openers.set(next.dialog, current);
    }
    current = next;
    lostSince = null;
  };

  /** Where the focus should go for a lost `mark`: inside its dialog, or back to what opened it. */
  const returnTarget = (mark: Mark): HTMLElement | null => {
    if (mark.dialog && !mark.dialog.isConnected) {
      const opener = openers.get(mark.dialog);
      return opener ? returnTarget(opener) : null;
    }
    const again = findAgain(mark);
    if (again) return again;
    if (mark.dialog) return mark.dialog as HTMLElement;
    return null;
  };

  const isLost = () => {
    const active = document.activeElement;
    return (!active || active === document.body) && current !== null && !current.element.isConnected;
  };

  /** A change to the page: if it took the focused element away, look again in a moment. */
  const onMutation = () => {
    if (!isLost() || lostSince !== null) return;
    lostSince = Date.now();
    clearTimeout(timer);
    timer = setTimeout(restore, LET_THE_PAGE_MOVE_IT_MS);
  };

  const restore = () => {
    clearTimeout(timer);
    if (!isLost() || !current) {
      lostSince = null;
      return;
    }
    const target = returnTarget(current);
    if (target) {
      target.focus({ preventScroll: true });
      if (document.activeElement === target) current = markOf(target);
      lostSince = null;
      return;
    }
    lostSince ??= Date.now();
    const waited = Date.now() - lostSince;
    if (waited < WAIT_FOR_RETURN_MS) {
      timer = setTimeout(restore, Math.min(100, WAIT_FOR_RETURN_MS - waited));
      return;
    }
    const heading = screenHeading();
    if (heading) {
      heading.focus({ preventScroll: true });
      current = markOf(heading);
    }
    lostSince = null;
  };

  document.addEventListener('focusin', onFocusIn);
  const observer = new MutationObserver(onMutation);
  observer.observe(document.body, { childList: true, subtree: true });
  return () => {
    clearTimeout(timer);
    observer.disconnect();
    document.removeEventListener('focusin', onFocusIn);
  };
}
