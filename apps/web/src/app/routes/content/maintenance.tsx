import { useQuery } from '@tanstack/react-query';
import { Navigate, useSearchParams } from 'react-router';
import { BRAND } from '@shop/shared/brand';
import { ButtonLink } from '../../../components/ui/button.tsx';
import { Container } from '../../../components/ui/page.tsx';
import { paths } from '../../../config/paths.ts';
import { contentQueries } from '../../../features/content/api/content-api.ts';
import { formatTaipeiDateTime } from '@shop/shared/taipei-time';

/** /maintenance: what is happening and when the shop expects to be back. */
export default function MaintenancePage() {
  const status = useQuery({ ...contentQueries.status(), refetchInterval: 60_000 });
  const s = status.data;
  // Sent here from an open page (`?next=`): once the shop is open again, that page comes back.
  const [params] = useSearchParams();
  const next = params.get('next');
  if (s && !s.enabled && next?.startsWith('/') && !next.startsWith('//') && !next.startsWith('/\\'))
    return <Navigate to={next} replace />;
  return (
    <Container className="flex min-h-[60vh] max-w-xl flex-col items-center justify-center gap-5 py-16 text-center">
      <svg
        viewBox="0 0 64 64"
        className="size-16 text-tea"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        aria-hidden="true"
      >
        <path d="M10 46h44M16 46c0-10 7-18 16-18s16 8 16 18" />
        <path d="M32 20v-8M22 24l-4-6M42 24l4-6" />
      </svg>
      <h1 className="font-serif text-3xl">{s && !s.enabled ? '系統維護已完成' : '系統維護中'}</h1>
      <p className="text-ink-muted">
        {s?.enabled
          ? s.message
          : s
            ? '網站已恢復服務，歡迎回來逛逛。'
            : '我們正在進行系統維護，讓購物更順暢。'}
      </p>
      {s?.enabled && s.endsAt && (
        <p className="rounded-md bg-surface px-4 py-2" data-testid="maintenance-ends">
          預計恢復時間：<span className="tabular font-medium">{formatTaipeiDateTime(s.endsAt)}</span>
        </p>
      )}
      <p className="text-sm text-ink-muted">
        如有急事，請來信 {BRAND.email} 或於{BRAND.serviceHours} 來電 {BRAND.phone}。
      </p>
      {s && !s.enabled && <ButtonLink to={paths.landing()}>回到首頁</ButtonLink>}
    </Container>
  );
}
