import { ForgetPasswordConfirmPage } from '../../../features/auth/components/forget-password-confirm-page.tsx';

export default function ForgetPasswordConfirmRoute() {
  return <ForgetPasswordConfirmPage />;
}
