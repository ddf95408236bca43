import { EmailVerificationPage } from '../../../features/auth/components/email-verification-page.tsx';

export default function EmailVerificationRoute() {
  return <EmailVerificationPage />;
}
