import type { ReactNode } from 'react';
import { Link, type To } from 'react-router-dom';
import { buttonVariants } from '@/components/ui/button';
import { ArrowLeftIcon } from '@/components/ui/icons';

/** The way back to the screen before, above a screen's title: a quiet button with a left arrow, in a landmark named Back. */
export function BackLink({ to, children }: { to: To; children: ReactNode }) {
  return (
    <nav aria-label="Back">
      {/* Its words wrap (over the button look's one line): they may hold a name, "Back to" a customer, which must not widen a phone's page. */}
      <Link
        to={to}
        className={buttonVariants({ variant: 'ghost', size: 'sm', className: '-ml-2 h-auto! min-h-8 py-1 text-left whitespace-normal!' })}
      >
        <ArrowLeftIcon />
        {children}
      </Link>
    </nav>
  );
}
