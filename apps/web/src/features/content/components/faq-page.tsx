import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useLocation } from 'react-router';
import type { FaqEntry } from '@shop/shared/content';
import type { DescriptionBlock } from '@shop/shared/catalog-blocks';
import { DescriptionBlocks } from '../../../components/rich-text.tsx';
import { Container, PageHeader } from '../../../components/ui/page.tsx';
import { MOTION, prefersReducedMotion } from '../../../config/motion.ts';
import { scrollToElement } from '../../../lib/scroll.ts';
import { contentQueries } from '../api/content-api.ts';
import { ContentState } from './content-state.tsx';
import { PreviewBanner } from './preview-banner.tsx';
import type { PreviewMode } from '../hooks/use-preview-mode.ts';

function blockText(b: DescriptionBlock): string {
  if (b.type === 'list') return b.items.join(' ');
  if (b.type === 'steps') return b.items.map((i) => `${i.title} ${i.text}`).join(' ');
  return b.text;
}

/** One question; its answer slides open (500 ms, ease-in-out: `MOTION` in config/motion.ts). */
function Question({ entry, open, onToggle }: { entry: FaqEntry; open: boolean; onToggle(): void }) {
  const panelId = useId();
  return (
    <li id={entry.slug} className="border-b border-line last:border-b-0">
      <h3>
        <button
          type="button"
          aria-expanded={open}
          aria-controls={panelId}
          onClick={onToggle}
          className="flex min-h-14 w-full items-center justify-between gap-4 py-3 text-left font-medium hover:text-tea"
        >
          <span>{entry.question}</span>
          <span
            aria-hidden="true"
            className={`text-xl text-tea transition-transform ${open ? 'rotate-45' : ''}`}
          >
            +
          </span>
        </button>
      </h3>
      <div
        id={panelId}
        role="region"
        aria-label={entry.question}
        data-open={open}
        className="grid"
        style={{
          gridTemplateRows: open ? '1fr' : '0fr',
          transition: `grid-template-rows ${MOTION.slide.durationMs}ms ${MOTION.slide.easing}`,
        }}
        inert={!open}
      >
        <div className="overflow-hidden">
          <div className="pb-5">
            <DescriptionBlocks blocks={entry.answer} />
            <a
              href={`#${encodeURIComponent(entry.slug)}`}
              className="mt-3 inline-block text-xs text-ink-muted underline underline-offset-4"
            >
              這個問題的連結
            </a>
          </div>
        </div>
      </div>
    </li>
  );
}

export function FaqPage({ preview }: { preview: PreviewMode }) {
  const faq = useQuery(contentQueries.faq(preview.requested));
  const location = useLocation();
  const [query, setQuery] = useState('');
  const [open, setOpen] = useState<Set<string>>(new Set());
  const scrolledFor = useRef<string | null>(null);

  // A link to a question (/faq#slug) opens it and scrolls to it: offset 120, 400 ms, ease.
  const hash = decodeURIComponent(location.hash.slice(1));
  useEffect(() => {
    if (!faq.data || !hash || scrolledFor.current === hash || !faq.data.entries.some((e) => e.slug === hash))
      return;
    scrolledFor.current = hash;
    setOpen((prev) => new Set(prev).add(hash));
    // The answer opens first; the scroll waits one short transition (100 ms, none under reduced
    // motion) so it measures the page after the router's own jump to the anchor and the opened answer.
    const wait = prefersReducedMotion() ? MOTION.transitionWaitMs.none : MOTION.transitionWaitMs.short;
    setTimeout(() => {
      const el = document.getElementById(hash);
      if (el?.isConnected) void scrollToElement(el);
    }, wait);
  }, [faq.data, hash]);

  const filtered = useMemo(() => {
    const q = query.trim().toLowerCase();
    if (!faq.data || !q) return faq.data?.entries ?? [];
    return faq.data.entries.filter((e) =>
      `${e.question} ${e.answer.map(blockText).join(' ')}`.toLowerCase().includes(q),
    );
  }, [faq.data, query]);

  return (
    <>
      <PreviewBanner active={preview.active} editor="/admin/content/faq" />
      <Container className="py-10 sm:py-14">
        <PageHeader title="常見問題" lead="找不到答案嗎？歡迎透過聯絡我們頁面來信，客服會盡快回覆。" />
        <div className="mt-6 max-w-xl">
          <label htmlFor="faq-search" className="mb-1.5 block text-sm font-medium">
            搜尋問題
          </label>
          <input
            id="faq-search"
            type="search"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
            placeholder="例如：運費、退貨、冷泡"
            className="min-h-11 w-full rounded-md border border-line bg-surface px-3.5"
          />
        </div>
        <ContentState query={faq}>
          {(data) => (
            <div className="mt-8 flex flex-col gap-10">
              {query && (
                <p className="text-sm text-ink-muted" aria-live="polite">
                  找到 {filtered.length} 個相關問題
                </p>
              )}
              {data.categories.map((c) => {
                const entries = filtered.filter((e) => e.category === c.slug);
                if (entries.length === 0) return null;
                return (
                  <section key={c.slug} aria-labelledby={`faq-${c.slug}`}>
                    <h2 id={`faq-${c.slug}`} className="mb-2 font-serif text-xl text-tea-dark">
                      {c.name}
                    </h2>
                    <ul className="rounded-xl border border-line bg-surface px-5">
                      {entries.map((e) => (
                        <Question
                          key={e.slug}
                          entry={e}
                          open={open.has(e.slug)}
                          onToggle={() =>
                            setOpen((prev) => {
                              const next = new Set(prev);
                              if (next.has(e.slug)) next.delete(e.slug);
                              else next.add(e.slug);
                              return next;
                            })
                          }
                        />
                      ))}
                    </ul>
                  </section>
                );
              })}
              {query && filtered.length === 0 && (
                <p className="text-ink-muted">沒有找到相關問題，換個關鍵字試試，或直接與我們聯絡。</p>
              )}
            </div>
          )}
        </ContentState>
      </Container>
    </>
  );
}
