import { useQuery } from '@tanstack/react-query';
import { contentEditorPath } from '@shop/shared/content-preview';
import { DescriptionBlocks } from '../../../components/rich-text.tsx';
import { Container, PageHeader } from '../../../components/ui/page.tsx';
import { contentQueries } from '../api/content-api.ts';
import { ContentState } from './content-state.tsx';
import { PreviewBanner } from './preview-banner.tsx';
import type { PreviewMode } from '../hooks/use-preview-mode.ts';

/** /home: the company page. */
export function CompanyPage({ preview }: { preview: PreviewMode }) {
  const company = useQuery(contentQueries.company(preview.requested));
  return (
    <>
      <PreviewBanner active={preview.active} editor={contentEditorPath('company', 'home')} />
      <Container className="py-10 sm:py-14">
        <ContentState query={company}>
          {(c) => (
            <div className="flex flex-col gap-12">
              <PageHeader eyebrow="關於山嵐" title={c.title} lead={c.lead} />
              {c.story.map((s) => (
                <section key={s.heading} className="grid gap-4 lg:grid-cols-[240px_1fr]">
                  <h2 className="font-serif text-2xl text-tea-dark">{s.heading}</h2>
                  <DescriptionBlocks blocks={s.blocks} />
                </section>
              ))}
              <section aria-labelledby="values-title">
                <h2 id="values-title" className="mb-6 font-serif text-2xl">
                  我們相信的事
                </h2>
                <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
                  {c.values.map((v) => (
                    <li key={v.title} className="rounded-lg border border-line bg-surface p-5">
                      <h3 className="mb-2 font-medium text-tea-dark">{v.title}</h3>
                      <p className="text-sm text-ink-muted">{v.text}</p>
                    </li>
                  ))}
                </ul>
              </section>
              <section aria-labelledby="milestones-title">
                <h2 id="milestones-title" className="mb-6 font-serif text-2xl">
                  一路走來
                </h2>
                <ol className="relative ml-3 border-l-2 border-line">
                  {c.milestones.map((m) => (
                    <li key={`${m.year}-${m.text}`} className="relative pb-6 pl-6 last:pb-0">
                      <span
                        className="absolute top-2 -left-[7px] size-3 rounded-full bg-tea"
                        aria-hidden="true"
                      />
                      <p className="tabular font-serif text-lg text-tea-dark">{m.year}</p>
                      <p className="text-ink">{m.text}</p>
                    </li>
                  ))}
                </ol>
              </section>
              <section aria-labelledby="locations-title">
                <h2 id="locations-title" className="mb-6 font-serif text-2xl">
                  門市與據點
                </h2>
                <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
                  {c.locations.map((l) => (
                    <li
                      key={l.name}
                      className="flex flex-col gap-1 rounded-lg border border-line bg-surface p-5 text-sm"
                    >
                      <h3 className="mb-1 text-base font-medium">{l.name}</h3>
                      <p>{l.address}</p>
                      <p className="text-ink-muted">{l.hours}</p>
                      <p className="tabular text-ink-muted">{l.phone}</p>
                      {l.note && <p className="text-ink-muted">{l.note}</p>}
                    </li>
                  ))}
                </ul>
              </section>
            </div>
          )}
        </ContentState>
      </Container>
    </>
  );
}
