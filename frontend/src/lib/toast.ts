import { localizeTimesInText } from '@crm/projections/contract';
import { atom } from 'jotai';
import { appStore } from './store';

/** One toast at a time; dismissed toasts are dropped after this delay. */
export const TOAST_LIMIT = 1;
export const TOAST_REMOVE_DELAY_MS = 1_000_000;
export const TOAST_DURATION_MS = 5000;

export type ToastVariant = 'default' | 'destructive';

export interface ToastInput {
  title?: string;
  description?: string;
  variant?: ToastVariant;
  /** Milliseconds before it closes by itself; defaults to TOAST_DURATION_MS. */
  duration?: number;
}

export interface ToastState extends ToastInput {
  id: string;
  open: boolean;
}

export const toastsAtom = atom<ToastState[]>([]);

let counter = 0;
const removalTimers = new Map<string, ReturnType<typeof setTimeout>>();

function scheduleRemoval(id: string): void {
  if (removalTimers.has(id)) return;
  const timer = setTimeout(() => {
    removalTimers.delete(id);
    appStore.set(toastsAtom, (toasts) => toasts.filter((t) => t.id !== id));
  }, TOAST_REMOVE_DELAY_MS);
  removalTimers.set(id, timer);
}

/** Closes one toast (or all); it stays mounted long enough to animate out. */
export function dismissToast(id?: string): void {
  appStore.set(toastsAtom, (toasts) =>
    toasts.map((t) => {
      if (id !== undefined && t.id !== id) return t;
      scheduleRemoval(t.id);
      return { ...t, open: false };
    }),
  );
}

/** A toast's words with the server's UTC times in the shop's zone. */
function localized(input: ToastInput): ToastInput {
  return {
    ...input,
    ...(input.title ? { title: localizeTimesInText(input.title) } : {}),
    ...(input.description ? { description: localizeTimesInText(input.description) } : {}),
  };
}

/** Shows a toast from anywhere (components, mutations, plain functions); replaces the current one. */
export function toast(input: ToastInput) {
  counter = (counter + 1) % Number.MAX_SAFE_INTEGER;
  const id = String(counter);
  appStore.set(toastsAtom, (toasts) => {
    // Replaced toasts leave for good: clear their pending removal.
    for (const t of toasts.slice(TOAST_LIMIT - 1)) {
      const timer = removalTimers.get(t.id);
      if (timer) clearTimeout(timer);
      removalTimers.delete(t.id);
    }
    return [{ ...localized(input), id, open: true }, ...toasts].slice(0, TOAST_LIMIT);
  });
  return {
    id,
    dismiss: () => dismissToast(id),
    update: (next: ToastInput) => appStore.set(toastsAtom, (toasts) => toasts.map((t) => (t.id === id ? { ...t, ...localized(next) } : t))),
  };
}
