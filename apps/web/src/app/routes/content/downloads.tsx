import { useIsLogin } from '../../../features/auth/stores/user-store.ts';
import { DownloadsPage } from '../../../features/content/components/downloads-page.tsx';
import { usePreviewMode } from '../../../features/content/hooks/use-preview-mode.ts';

export default function DownloadsRoute() {
  const signedIn = useIsLogin();
  return <DownloadsPage preview={usePreviewMode(signedIn)} signedIn={signedIn} />;
}
