import { Navigate, useNavigate } from 'react-router-dom';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { paths } from '@/config/paths';
import { SuperAdminLoginForm } from '@/features/platform/components/super-admin-login-form';
import { useSuperAdminSession } from '@/features/platform/hooks/use-super-admin-session';
import { usePageTitle } from '@/lib/use-page-title';

export function Component() {
  usePageTitle('Super Admin Login');
  const navigate = useNavigate();
  const session = useSuperAdminSession();
  // Already signed in (e.g. the back button after login): nothing to do here.
  if (session.status === 'signed-in') return <Navigate to={paths.home} replace />;

  return (
    <div className="flex justify-center py-4 sm:py-10">
      <Card className="w-full max-w-sm">
        <CardHeader className="text-center">
          <h1 className="text-2xl font-semibold tracking-tight">Super Admin Login</h1>
          <CardDescription>Sign in to manage your shops' CRM instances.</CardDescription>
        </CardHeader>
        <CardContent>
          <SuperAdminLoginForm onSuccess={() => void navigate(paths.home, { replace: true })} />
        </CardContent>
      </Card>
    </div>
  );
}
