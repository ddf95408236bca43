import { useQuery } from '@tanstack/react-query';
import { useLocation } from 'react-router';
import { TEXT_PAGES, type TextPageSlug } from '@shop/shared/content';
import { contentEditorPath } from '@shop/shared/content-preview';
import { DescriptionBlocks } from '../../../components/rich-text.tsx';
import { Container, PageHeader } from '../../../components/ui/page.tsx';
import { contentQueries } from '../api/content-api.ts';
import { ContentState } from './content-state.tsx';
import { formatDate } from './format.ts';
import { PreviewBanner } from './preview-banner.tsx';
import type { PreviewMode } from '../hooks/use-preview-mode.ts';

/** /shipping, /transport, /serviceTerms, /privacyPolicy: text pages with a table of contents. */
export function TextPage({ preview }: { preview: PreviewMode }) {
  const { pathname } = useLocation();
  const slug = (TEXT_PAGES.find((p) => pathname.toLowerCase() === `/${p.toLowerCase()}`) ??
    'shipping') as TextPageSlug;
  const page = useQuery(contentQueries.textPage(slug, preview.requested));
  return (
    <>
      <PreviewBanner active={preview.active} editor={contentEditorPath('textPage', slug)} />
      <Container className="py-10 sm:py-14">
        <ContentState query={page}>
          {(p) => (
            <div className="flex flex-col gap-8">
              <PageHeader title={p.title} lead={p.lead} />
              <div className="grid gap-10 lg:grid-cols-[220px_1fr]">
                <nav aria-label="本頁目錄" className="hidden lg:block">
                  <ol className="sticky top-24 flex flex-col gap-1 text-sm">
                    {p.sections.map((s, i) => (
                      <li key={s.heading}>
                        <a
                          href={`#section-${i + 1}`}
                          className="block rounded px-2 py-1.5 text-ink-muted hover:bg-tea-soft hover:text-tea-dark"
                        >
                          {s.heading}
                        </a>
                      </li>
                    ))}
                  </ol>
                </nav>
                <div className="flex max-w-3xl flex-col gap-10">
                  {p.sections.map((s, i) => (
                    <section key={s.heading} id={`section-${i + 1}`} className="scroll-mt-28">
                      <h2 className="mb-4 font-serif text-xl text-tea-dark">{s.heading}</h2>
                      <DescriptionBlocks blocks={s.blocks} />
                    </section>
                  ))}
                  <p className="text-sm text-ink-muted">最後更新：{formatDate(p.updated)}</p>
                </div>
              </div>
            </div>
          )}
        </ContentState>
      </Container>
    </>
  );
}
