import { Link } from 'react-router';
import { matchRoute } from '@shop/shared/routes';
import { Container, PageHeader } from './ui/page.tsx';
import { paths } from '../config/paths.ts';
import { useLocation } from 'react-router';

/**
 * A page whose content a later issue builds. It says so on screen, in zh-TW, and never pretends
 * to be finished.
 */
export function PlaceholderPage({ note }: { note?: string }) {
  const location = useLocation();
  const title = matchRoute(location.pathname)?.route.title ?? '頁面';
  return (
    <Container className="py-10 sm:py-14">
      <PageHeader title={title} />
      <div className="mt-8 flex flex-col items-start gap-3 rounded-lg border border-dashed border-tea/40 bg-tea-soft/40 p-6" role="note">
        <p className="font-medium text-tea-dark">此頁面內容即將推出</p>
        <p className="text-ink-muted">{note ?? '我們正在準備這個頁面的內容，完成後會在這裡與您見面。'}</p>
        <Link to={paths.landing()} className="text-tea underline underline-offset-4">
          回到首頁
        </Link>
      </div>
    </Container>
  );
}
