import { ForgetPasswordPage } from '../../../features/auth/components/forget-password-page.tsx';

export default function ForgetPasswordRoute() {
  return <ForgetPasswordPage />;
}
