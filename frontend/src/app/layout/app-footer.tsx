import { FALLBACK_PROVIDER_NAME, useAppInfo } from '@/features/app-info/api/get-app-info';

export function AppFooter() {
  const { data } = useAppInfo();
  const providerName = data?.providerName.trim() || FALLBACK_PROVIDER_NAME;
  return (
    <footer className="border-t print:hidden">
      <div className="mx-auto w-full max-w-6xl px-4 py-5 text-center text-sm text-muted-foreground sm:px-6">
        © {new Date().getFullYear()} {providerName}
      </div>
    </footer>
  );
}
