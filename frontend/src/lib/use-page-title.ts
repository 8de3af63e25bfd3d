import { useEffect } from 'react';

export const PRODUCT_NAME = 'Shop CRM';

/** Sets the tab title for the current screen. */
export function usePageTitle(title: string | undefined): void {
  useEffect(() => {
    document.title = title ? `${title} · ${PRODUCT_NAME}` : PRODUCT_NAME;
  }, [title]);
}
