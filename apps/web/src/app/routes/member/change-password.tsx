import { ChangePasswordPage } from '../../../features/auth/components/change-password-page.tsx';

export default function ChangePasswordRoute() {
  return <ChangePasswordPage />;
}
