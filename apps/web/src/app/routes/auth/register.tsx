import { RegisterPage } from '../../../features/auth/components/register-page.tsx';

export default function RegisterRoute() {
  return <RegisterPage />;
}
