import { useIsLogin } from '../../../features/auth/stores/user-store.ts';
import { MediaPage } from '../../../features/content/components/media-page.tsx';
import { usePreviewMode } from '../../../features/content/hooks/use-preview-mode.ts';

export default function MediaRoute() {
  const signedIn = useIsLogin();
  return <MediaPage preview={usePreviewMode(signedIn)} />;
}
