import { useIsLogin } from '../../../features/auth/stores/user-store.ts';
import { FaqPage } from '../../../features/content/components/faq-page.tsx';
import { usePreviewMode } from '../../../features/content/hooks/use-preview-mode.ts';

export default function FaqRoute() {
  const signedIn = useIsLogin();
  return <FaqPage preview={usePreviewMode(signedIn)} />;
}
