import { ResetPasswordPage } from '../../../features/auth/components/reset-password-page.tsx';

export default function ResetPasswordRoute() {
  return <ResetPasswordPage />;
}
