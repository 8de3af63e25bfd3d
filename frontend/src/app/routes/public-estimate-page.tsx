import { useParams } from 'react-router-dom';
import { PublicEstimateScreen } from '@/features/estimate-approval/components/public-estimate-screen';

/** /estimate/{token}: the estimate a shop sent, for its customer to approve or decline (no sign-in). */
export function Component() {
  const { token = '' } = useParams();
  return <PublicEstimateScreen key={token} token={token} />;
}
