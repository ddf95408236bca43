import { useIsLogin } from '../../../features/auth/stores/user-store.ts';
import { PatentsPage } from '../../../features/content/components/patents-page.tsx';
import { usePreviewMode } from '../../../features/content/hooks/use-preview-mode.ts';

export default function PatentsRoute() {
  const signedIn = useIsLogin();
  return <PatentsPage preview={usePreviewMode(signedIn)} />;
}
