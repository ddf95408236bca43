import { Link, useLocation } from 'react-router';
import { PREVIEW_PARAM } from '@shop/shared/content-preview';
import { Container } from '../../../components/ui/page.tsx';

/** Says plainly that the page shows an unpublished draft, with the way back to the editor. */
export default function PreviewBannerBody({ editor }: { editor: string }) {
  const location = useLocation();
  const params = new URLSearchParams(location.search);
  params.delete(PREVIEW_PARAM);
  const query = params.toString();
  const live = `${location.pathname}${query ? `?${query}` : ''}${location.hash}`;
  return (
    <div role="status" className="border-b border-amber/50 bg-amber-soft text-[#5e3b17]">
      <Container className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:justify-between">
        <div className="flex items-start gap-2">
          <svg
            viewBox="0 0 20 20"
            className="mt-0.5 size-5 shrink-0"
            fill="none"
            stroke="currentColor"
            strokeWidth="1.6"
            aria-hidden="true"
          >
            <path d="M1.5 10S4.5 4 10 4s8.5 6 8.5 6-3 6-8.5 6-8.5-6-8.5-6Z" />
            <circle cx="10" cy="10" r="2.5" />
          </svg>
          <p className="text-sm">
            <strong className="font-semibold">預覽模式：這是尚未發布的草稿，訪客看不到</strong>
            <span className="block text-[#7a4f22]">隱藏中的項目在預覽裡也會出現。</span>
          </p>
        </div>
        <div className="flex shrink-0 flex-wrap gap-x-4 gap-y-1 text-sm">
          <Link to={editor} className="font-medium underline underline-offset-4 hover:text-ink">
            回到編輯
          </Link>
          <Link to={live} className="underline underline-offset-4 hover:text-ink">
            查看正式頁面
          </Link>
        </div>
      </Container>
    </div>
  );
}
