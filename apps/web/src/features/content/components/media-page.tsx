import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import type { MediaItem } from '@shop/shared/content';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Pagination } from '../../../components/ui/pagination.tsx';
import { cn } from '../../../components/ui/cn.ts';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { Container, PageHeader } from '../../../components/ui/page.tsx';
import { contentQueries } from '../api/content-api.ts';
import { ContentState } from './content-state.tsx';
import { formatDate } from './format.ts';
import { PreviewBanner } from './preview-banner.tsx';
import type { PreviewMode } from '../hooks/use-preview-mode.ts';

const TYPES = [
  { value: 'all', label: '全部' },
  { value: 'article', label: '文章' },
  { value: 'video', label: '影片' },
] as const;

/** The video player loads only when asked: no third-party request on page load. */
function Video({ item }: { item: MediaItem }) {
  const [playing, setPlaying] = useState(false);
  if (!item.videoId) return null;
  return playing ? (
    <div className="aspect-video overflow-hidden rounded-lg bg-ink">
      <iframe
        src={`https://www.youtube-nocookie.com/embed/${encodeURIComponent(item.videoId)}?autoplay=1`}
        title={item.title}
        allow="autoplay; encrypted-media; picture-in-picture"
        allowFullScreen
        className="size-full"
      />
    </div>
  ) : (
    <button
      type="button"
      onClick={() => setPlaying(true)}
      className="flex aspect-video w-full flex-col items-center justify-center gap-2 rounded-lg bg-tea-dark text-white hover:bg-tea"
    >
      <svg viewBox="0 0 48 48" className="size-12" aria-hidden="true">
        <circle cx="24" cy="24" r="22" fill="currentColor" opacity="0.2" />
        <path d="M19 15 35 24 19 33Z" fill="currentColor" />
      </svg>
      <span className="text-sm">播放影片（將載入 YouTube）</span>
    </button>
  );
}

export function MediaPage({ preview }: { preview: PreviewMode }) {
  const [params, setParams] = useSearchParams();
  const type = (TYPES.find((t) => t.value === params.get('type'))?.value ?? 'all') as
    'all' | 'article' | 'video';
  const page = Math.max(1, Number(params.get('page')) || 1);
  const media = useQuery(contentQueries.media(type, page, preview.requested));
  const go = (next: { type?: string; page?: number }) => {
    const p = new URLSearchParams();
    const t = next.type ?? type;
    if (t !== 'all') p.set('type', t);
    if ((next.page ?? 1) > 1) p.set('page', String(next.page));
    if (preview.requested) p.set('preview', '1');
    setParams(p);
  };
  return (
    <>
      <PreviewBanner active={preview.active} editor="/admin/content/media" />
      <Container className="py-10 sm:py-14">
        <PageHeader eyebrow="媒體" title="媒體報導" lead="關於山嵐茶事的報導與影片，由新到舊排列。" />
        <nav aria-label="報導類型" className="mt-6 flex gap-2">
          {TYPES.map((t) => (
            <button
              key={t.value}
              type="button"
              aria-pressed={type === t.value}
              onClick={() => go({ type: t.value })}
              className={cn(
                'min-h-10 rounded-full border px-4 text-sm',
                type === t.value ? 'border-tea bg-tea text-white' : 'border-line bg-surface',
              )}
            >
              {t.label}
            </button>
          ))}
        </nav>
        <ContentState query={media}>
          {(data) =>
            data.items.length === 0 ? (
              <div className="mt-8">
                <EmptyState
                  title="沒有這一類的報導"
                  action={
                    <Button variant="secondary" onClick={() => go({ type: 'all' })}>
                      看全部報導
                    </Button>
                  }
                />
              </div>
            ) : (
              <>
                {/* Each card as tall as its own content: an article never stretches to its neighbour video. */}
                <ul className="mt-8 grid items-start gap-6 md:grid-cols-2">
                  {data.items.map((m) => (
                    <li
                      key={m.slug}
                      className="flex flex-col gap-3 rounded-xl border border-line bg-surface p-5"
                    >
                      <p className="flex flex-wrap items-center gap-2 text-sm text-ink-muted">
                        <Badge tone={m.type === 'video' ? 'amber' : 'tea'}>
                          {m.type === 'video' ? '影片' : '文章'}
                        </Badge>
                        {m.source}・<span className="tabular">{formatDate(m.date)}</span>
                      </p>
                      <h2 className="font-serif text-lg">{m.title}</h2>
                      {m.type === 'video' && <Video item={m} />}
                      <p className="text-sm text-ink-muted">{m.summary}</p>
                      {m.type === 'article' && (
                        <a
                          href={m.url}
                          target="_blank"
                          rel="noopener noreferrer"
                          className="self-start text-sm text-tea underline underline-offset-4"
                        >
                          閱讀全文（另開新視窗）
                        </a>
                      )}
                    </li>
                  ))}
                </ul>
                <Pagination
                  page={page}
                  totalPages={data.totalPages}
                  onPage={(p) => go({ page: p })}
                  className="mt-8"
                />
              </>
            )
          }
        </ContentState>
      </Container>
    </>
  );
}
