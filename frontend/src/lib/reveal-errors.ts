/**
 * Every form shows its first error where the user looks: after a submit, the first field
 * marked invalid (aria-invalid) is scrolled into view and focused; when no field is to blame,
 * the form's error message (a non-empty role="alert") is scrolled into view. It works for
 * errors found before sending and for the server's answer that comes later, in every form,
 * without each form doing it: one listener on the document watches the form just submitted.
 */

/** How long after a submit a server's answer is still waited for. */
const WATCH_MS = 20_000;

function visible(element: Element): boolean {
  return element instanceof HTMLElement && element.getClientRects().length > 0;
}

/** The form's surroundings that may hold its messages: its dialog, or the form itself. */
function scopeOf(form: HTMLFormElement): Element {
  return form.closest('[role="dialog"],[role="alertdialog"]') ?? form;
}

function firstError(scope: Element): { element: HTMLElement; field: boolean } | null {
  const field = [...scope.querySelectorAll('[aria-invalid="true"]')].find(visible);
  if (field instanceof HTMLElement) return { element: field, field: true };
  const alert = [...scope.querySelectorAll('[role="alert"]')].find((element) => visible(element) && element.textContent?.trim());
  return alert instanceof HTMLElement ? { element: alert, field: false } : null;
}

function reveal({ element, field }: { element: HTMLElement; field: boolean }): void {
  element.scrollIntoView({ block: 'center', behavior: 'auto' });
  if (field) element.focus({ preventScroll: true });
}

let installed = false;

export function installErrorReveal(doc: Document = document): void {
  if (installed) return;
  installed = true;
  let stopWatching: (() => void) | null = null;

  doc.addEventListener(
    'submit',
    (event) => {
      const form = event.target;
      if (!(form instanceof HTMLFormElement)) return;
      stopWatching?.();
      const scope = scopeOf(form);
      // Errors already on screen before this submit do not count for the server's answer.
      const before = new Set([...scope.querySelectorAll('[role="alert"]')].map((element) => element.textContent ?? ''));
      let frame = 0;
      const check = (afterSubmit: boolean) => {
        frame = 0;
        if (!scope.isConnected) return stop();
        const found = firstError(scope);
        if (!found) return;
        if (!found.field && !afterSubmit && before.has(found.element.textContent ?? '')) return;
        reveal(found);
        stop();
      };
      const observer = new MutationObserver(() => {
        if (!frame) frame = requestAnimationFrame(() => check(false));
      });
      const timer = setTimeout(() => stop(), WATCH_MS);
      const stop = () => {
        observer.disconnect();
        clearTimeout(timer);
        if (frame) cancelAnimationFrame(frame);
        if (stopWatching === stop) stopWatching = null;
      };
      stopWatching = stop;
      observer.observe(scope, { subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ['aria-invalid'] });
      // The form's own checks ran in this same event: what they marked shows after React renders.
      frame = requestAnimationFrame(() => check(true));
    },
    // Bubbling listeners on the document run after React's own submit handling (on the root).
    false,
  );
}
