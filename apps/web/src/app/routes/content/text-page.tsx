import { useIsLogin } from '../../../features/auth/stores/user-store.ts';
import { TextPage } from '../../../features/content/components/text-page.tsx';
import { usePreviewMode } from '../../../features/content/hooks/use-preview-mode.ts';

export default function TextRoute() {
  const signedIn = useIsLogin();
  return <TextPage preview={usePreviewMode(signedIn)} />;
}
