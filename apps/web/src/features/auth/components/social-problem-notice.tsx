import { useSearchParams } from 'react-router';
import { SOCIAL_PROBLEMS, SocialProblem } from '@shop/shared/social-sign-in';
import { Alert } from '../../../components/ui/alert.tsx';

/** What a trip to LINE or Google came back with (`?social=…` on /login and /member), said once. */
export function SocialProblemNotice() {
  const [params] = useSearchParams();
  const parsed = SocialProblem.safeParse(params.get('social'));
  if (!parsed.success) return null;
  const tone = parsed.data === 'linked' ? 'success' : parsed.data === 'cancelled' ? 'info' : 'error';
  return (
    <Alert tone={tone} className="mb-5">
      {SOCIAL_PROBLEMS[parsed.data]}
    </Alert>
  );
}
