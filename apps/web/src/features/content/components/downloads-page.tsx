import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { Badge } from '../../../components/ui/badge.tsx';
import { Container, PageHeader } from '../../../components/ui/page.tsx';
import { textLinkClass } from '../../../components/ui/text-link.tsx';
import { paths } from '../../../config/paths.ts';
import { contentQueries } from '../api/content-api.ts';
import { ContentState } from './content-state.tsx';
import { formatBytes, formatDate } from './format.ts';
import { PreviewBanner } from './preview-banner.tsx';
import type { PreviewMode } from '../hooks/use-preview-mode.ts';

const TYPE_NAMES: Record<string, string> = {
  'application/pdf': 'PDF',
  'image/png': 'PNG 圖檔',
  'image/jpeg': 'JPEG 圖檔',
  'image/webp': 'WebP 圖檔',
};

export function DownloadsPage({ preview, signedIn }: { preview: PreviewMode; signedIn: boolean }) {
  const downloads = useQuery(contentQueries.downloads(preview.requested));
  return (
    <>
      <PreviewBanner active={preview.active} editor="/admin/content/download" />
      <Container className="py-10 sm:py-14">
        <PageHeader
          eyebrow="資源"
          title="檔案下載"
          lead="茶品型錄、沖泡指南與檢驗報告。標示「會員限定」的檔案，登入後即可下載。"
        />
        <ContentState query={downloads}>
          {(files) => (
            <ul className="mt-8 divide-y divide-line rounded-xl border border-line bg-surface">
              {files.map((f) => (
                <li
                  key={f.slug}
                  className="flex flex-col gap-3 p-5 sm:flex-row sm:items-center sm:justify-between"
                >
                  <div className="flex flex-col gap-1">
                    <p className="flex flex-wrap items-center gap-2">
                      <span className="font-medium">{f.title}</span>
                      <Badge tone="neutral">{f.category}</Badge>
                      {f.membersOnly && <Badge tone="amber">會員限定</Badge>}
                    </p>
                    <p className="text-sm text-ink-muted">{f.description}</p>
                    <p className="tabular text-xs text-ink-muted">
                      {TYPE_NAMES[f.contentType] ?? f.contentType}・{formatBytes(f.size)}・
                      {formatDate(f.date)}
                    </p>
                  </div>
                  {f.membersOnly && !signedIn ? (
                    <Link to={paths.login(paths.download())} className={`${textLinkClass} shrink-0 text-sm`}>
                      登入後下載
                    </Link>
                  ) : (
                    <a
                      href={f.url}
                      download
                      className="inline-flex min-h-11 shrink-0 items-center justify-center rounded-md border border-tea/40 px-4 text-tea hover:bg-tea-soft"
                    >
                      下載<span className="sr-only">：{f.title}</span>
                    </a>
                  )}
                </li>
              ))}
            </ul>
          )}
        </ContentState>
      </Container>
    </>
  );
}
