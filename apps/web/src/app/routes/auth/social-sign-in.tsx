import { SocialSignInPage } from '../../../features/auth/components/social-sign-in-page.tsx';

export default function SocialSignInRoute() {
  return <SocialSignInPage />;
}
