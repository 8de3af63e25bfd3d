import * as ToastPrimitive from '@radix-ui/react-toast';
import { useAtomValue } from 'jotai';
import { cn } from '@/lib/cn';
import { dismissToast, TOAST_DURATION_MS, toastsAtom } from '@/lib/toast';
import { XIcon } from './icons';

/**
 * Renders the toasts queued by `toast()`. Mounted once, in the app providers.
 * Toasts: 5000 ms, swipe right past 50 px, F8 focuses the viewport, max 420 px wide.
 */
export function Toaster() {
  const toasts = useAtomValue(toastsAtom);
  return (
    <ToastPrimitive.Provider duration={TOAST_DURATION_MS} swipeDirection="right" swipeThreshold={50}>
      {toasts.map(({ id, title, description, variant = 'default', duration, open }) => (
        <ToastPrimitive.Root
          key={id}
          open={open}
          duration={duration}
          type={variant === 'destructive' ? 'foreground' : 'background'}
          onOpenChange={(next) => {
            if (!next) dismissToast(id);
          }}
          className={cn(
            'group pointer-events-auto relative flex w-full items-start justify-between gap-3 overflow-hidden rounded-lg border p-4 pr-10 shadow-lg',
            'data-[state=open]:animate-toast-in data-[state=closed]:animate-toast-out',
            'data-[swipe=move]:translate-x-(--radix-toast-swipe-move-x) data-[swipe=cancel]:translate-x-0 data-[swipe=cancel]:transition-transform data-[swipe=end]:animate-toast-out',
            variant === 'destructive' ? 'border-destructive bg-destructive text-destructive-foreground' : 'bg-card text-card-foreground',
          )}
        >
          <div className="grid gap-1">
            {title ? <ToastPrimitive.Title className="text-sm font-semibold">{title}</ToastPrimitive.Title> : null}
            {description ? <ToastPrimitive.Description className="text-sm opacity-90">{description}</ToastPrimitive.Description> : null}
          </div>
          <ToastPrimitive.Close className="absolute top-2 right-2 rounded-md p-1.5 opacity-70 hover:opacity-100 focus-visible:opacity-100 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring">
            <XIcon className="size-4" />
            <span className="sr-only">Close</span>
          </ToastPrimitive.Close>
        </ToastPrimitive.Root>
      ))}
      <ToastPrimitive.Viewport
        hotkey={['F8']}
        className="fixed top-0 right-0 z-[100] flex max-h-screen w-full max-w-[420px] flex-col-reverse gap-2 p-4 outline-none sm:top-auto sm:bottom-0 sm:flex-col"
      />
    </ToastPrimitive.Provider>
  );
}
