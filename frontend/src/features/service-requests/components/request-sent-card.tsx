import type { ReactNode } from 'react';
import { Card, CardContent } from '@/components/ui/card';
import { CheckIcon } from '@/components/ui/icons';
import { SERVICE_REQUEST_TEXTS } from '../constants/service-request-texts';

/** What a sent request form turns into (staff and public alike): a check, "Success!", then what to say and where to go on. */
export function RequestSentCard({ children }: { children: ReactNode }) {
  return (
    <Card className="mx-auto w-full max-w-xl">
      <CardContent className="grid justify-items-center gap-4 py-10 text-center">
        <span className="flex size-12 items-center justify-center rounded-full bg-success/15 text-success [&_svg]:size-6">
          <CheckIcon />
        </span>
        <h1 className="text-2xl font-semibold">{SERVICE_REQUEST_TEXTS.successTitle}</h1>
        {children}
      </CardContent>
    </Card>
  );
}
