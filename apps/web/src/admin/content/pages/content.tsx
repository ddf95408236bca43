import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import {
  CONTENT_KIND_DEFS,
  TEXT_PAGE_DESCRIPTIONS,
  TEXT_PAGE_LABELS,
  type ContentKindSummary,
} from '@shop/shared/admin-content';
import type { TextPageSlug } from '@shop/shared/content';
import { Badge } from '../../../components/ui/badge.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { LoadError } from '../../../components/load-error.tsx';
import { AdminPage } from '../../shared/admin-page.tsx';
import { contentOverviewQuery } from '../queries.ts';
import { formatTaipeiDateTime } from '@shop/shared/taipei-time';
import { adminPath } from '@shop/shared/admin-routes';

interface CardProps {
  to: string;
  title: string;
  description: string;
  counts?: string;
  drafts: number;
  updatedAt: string | null;
}

function KindCard({ to, title, description, counts, drafts, updatedAt }: CardProps) {
  return (
    <li className="relative flex flex-col gap-2 rounded-xl border border-line bg-surface p-5 shadow-card transition-colors focus-within:border-tea hover:border-tea/60">
      <div className="flex items-start justify-between gap-3">
        <h2 className="font-serif text-lg text-ink">
          {/* The whole card is the link's target; the heading names it. */}
          <Link to={to} className="after:absolute after:inset-0 after:rounded-xl focus-visible:outline-none">
            {title}
          </Link>
        </h2>
        {drafts > 0 && <Badge tone="amber">{drafts > 1 ? `${drafts} 份草稿` : '有草稿'}</Badge>}
      </div>
      <p className="text-sm text-ink-muted">{description}</p>
      <p className="mt-auto flex flex-wrap gap-x-3 gap-y-1 pt-2 text-xs text-ink-muted">
        {counts && <span className="tabular">{counts}</span>}
        <span className="tabular">
          {updatedAt ? `最後更新 ${formatTaipeiDateTime(updatedAt)}` : '尚無內容'}
        </span>
      </p>
    </li>
  );
}

function cardsFor(summary: ContentKindSummary): CardProps[] {
  const def = CONTENT_KIND_DEFS[summary.kind];
  if (def.single) {
    return summary.pages.map((p) => ({
      to: adminPath.contentEdit(summary.kind, p.slug),
      title: summary.kind === 'textPage' ? TEXT_PAGE_LABELS[p.slug as TextPageSlug] : def.label,
      description:
        summary.kind === 'textPage' ? TEXT_PAGE_DESCRIPTIONS[p.slug as TextPageSlug] : def.description,
      drafts: p.hasDraft ? 1 : 0,
      updatedAt: p.updatedAt,
    }));
  }
  const hidden = summary.total - summary.visible;
  return [
    {
      to: adminPath.contentList(summary.kind),
      title: def.label,
      description: def.description,
      counts: `共 ${summary.total} 則${hidden > 0 ? `，${hidden} 則隱藏` : ''}`,
      drafts: summary.drafts,
      updatedAt: summary.updatedAt,
    },
  ];
}

/** /admin/content: every kind of site content as a card, with counts, drafts and the last change. */
export default function ContentPage() {
  const overview = useQuery(contentOverviewQuery());
  return (
    <AdminPage title="網站內容" description="修改後先存成草稿，預覽確認後再發布；訪客只會看到已發布的內容。">
      {overview.isError && <LoadError title="內容清單暫時無法載入" query={overview} />}
      {overview.isPending && (
        <ul aria-label="載入中" className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
          {Array.from({ length: 9 }, (_, i) => (
            <li key={i} className="flex flex-col gap-3 rounded-xl border border-line bg-surface p-5">
              <Skeleton className="h-6 w-32" />
              <Skeleton className="h-4 w-full" />
              <Skeleton className="h-3 w-40" />
            </li>
          ))}
        </ul>
      )}
      {overview.data && (
        <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
          {overview.data.kinds.flatMap(cardsFor).map((c) => (
            <KindCard key={c.to} {...c} />
          ))}
        </ul>
      )}
    </AdminPage>
  );
}
