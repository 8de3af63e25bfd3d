import { useParams } from 'react-router-dom';
import { PublicRequestScreen } from '@/features/service-requests/components/public-request-screen';

/** /{subdomain}/request: a shop's public service-request page (no sign-in; only while the shop has it on). */
export function Component() {
  const { subdomain = '' } = useParams();
  return <PublicRequestScreen key={subdomain} subdomain={subdomain.toLowerCase()} />;
}
