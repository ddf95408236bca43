import { useQuery } from '@tanstack/react-query';
import { ButtonLink } from '../../../components/ui/button.tsx';
import { Badge } from '../../../components/ui/badge.tsx';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { Container, PageHeader } from '../../../components/ui/page.tsx';
import { paths } from '../../../config/paths.ts';
import { contentQueries } from '../api/content-api.ts';
import { ContentState } from './content-state.tsx';
import { formatDate } from './format.ts';
import { PreviewBanner } from './preview-banner.tsx';
import type { PreviewMode } from '../hooks/use-preview-mode.ts';

function List({ title, items }: { title: string; items: string[] }) {
  return (
    <div>
      <h3 className="mb-1 text-sm font-semibold">{title}</h3>
      <ul className="list-disc space-y-1 pl-5 text-sm text-ink-muted">
        {items.map((i) => (
          <li key={i}>{i}</li>
        ))}
      </ul>
    </div>
  );
}

export function JobsPage({ preview }: { preview: PreviewMode }) {
  const jobs = useQuery(contentQueries.jobs(preview.requested));
  return (
    <>
      <PreviewBanner active={preview.active} editor="/admin/content/job" />
      <Container className="py-10 sm:py-14">
        <PageHeader eyebrow="加入我們" title="人才招募" lead="我們在找喜歡茶、也喜歡把事情做好的夥伴。" />
        <ContentState query={jobs}>
          {(list) =>
            list.length === 0 ? (
              <div className="mt-8">
                <EmptyState
                  title="目前沒有開放的職缺"
                  description="歡迎來信自我介紹，有適合的機會會與您聯絡。"
                  action={<ButtonLink to={paths.contact({ subject: '應徵工作' })}>來信自薦</ButtonLink>}
                />
              </div>
            ) : (
              <ul className="mt-8 flex flex-col gap-6">
                {list.map((j) => (
                  <li
                    key={j.slug}
                    id={j.slug}
                    className="flex flex-col gap-4 rounded-xl border border-line bg-surface p-5 sm:p-6"
                  >
                    <div className="flex flex-wrap items-start justify-between gap-3">
                      <div>
                        <h2 className="font-serif text-xl">{j.title}</h2>
                        {/* Spaced items, no 「・」: a separator of its own would dangle where the line wraps. */}
                        <p className="mt-1 flex flex-wrap items-center gap-x-4 gap-y-1 text-sm text-ink-muted">
                          <Badge tone="tea">{j.type}</Badge>
                          <span>{j.department}</span>
                          <span>{j.location}</span>
                          <span className="tabular">刊登於 {formatDate(j.posted)}</span>
                        </p>
                      </div>
                      <ButtonLink to={paths.contact({ subject: '應徵工作', job: j.slug })}>
                        我要應徵
                      </ButtonLink>
                    </div>
                    <p>{j.summary}</p>
                    <div className="grid gap-4 md:grid-cols-3">
                      <List title="工作內容" items={j.responsibilities} />
                      <List title="我們希望您" items={j.requirements} />
                      <List title="福利" items={j.benefits} />
                    </div>
                  </li>
                ))}
              </ul>
            )
          }
        </ContentState>
      </Container>
    </>
  );
}
