import { useIsLogin } from '../../../features/auth/stores/user-store.ts';
import { CompanyPage } from '../../../features/content/components/company-page.tsx';
import { usePreviewMode } from '../../../features/content/hooks/use-preview-mode.ts';

export default function CompanyRoute() {
  const signedIn = useIsLogin();
  return <CompanyPage preview={usePreviewMode(signedIn)} />;
}
