import { useIsLogin } from '../../../features/auth/stores/user-store.ts';
import { JobsPage } from '../../../features/content/components/jobs-page.tsx';
import { usePreviewMode } from '../../../features/content/hooks/use-preview-mode.ts';

export default function JobsRoute() {
  const signedIn = useIsLogin();
  return <JobsPage preview={usePreviewMode(signedIn)} />;
}
