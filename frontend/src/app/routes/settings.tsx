import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { ThemePreferenceForm } from '@/features/instance-shell/components/theme-preference-form';
import { usePageTitle } from '@/lib/use-page-title';

/** Settings of this browser: the theme. */
export function Component() {
  usePageTitle('Settings');
  return (
    <div className="mx-auto grid w-full max-w-3xl gap-6">
      <div className="grid gap-1">
        <h1 className="text-2xl font-semibold tracking-tight sm:text-3xl">Settings</h1>
        <p className="text-muted-foreground">How the CRM looks on this device.</p>
      </div>
      <Card>
        <CardHeader>
          <CardTitle>Appearance</CardTitle>
          <CardDescription>Saved in this browser and applied at once.</CardDescription>
        </CardHeader>
        <CardContent>
          <ThemePreferenceForm />
        </CardContent>
      </Card>
    </div>
  );
}
