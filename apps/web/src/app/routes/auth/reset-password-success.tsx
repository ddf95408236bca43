import { ResetPasswordSuccessPage } from '../../../features/auth/components/reset-password-success-page.tsx';

export default function ResetPasswordSuccessRoute() {
  return <ResetPasswordSuccessPage />;
}
