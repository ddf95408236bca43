import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { IpRecordView } from '@shop/shared/content-views';
import { Badge } from '../../../components/ui/badge.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { Container, PageHeader } from '../../../components/ui/page.tsx';
import { contentQueries } from '../api/content-api.ts';
import { ContentState } from './content-state.tsx';
import { formatDate } from './format.ts';
import { PreviewBanner } from './preview-banner.tsx';
import type { PreviewMode } from '../hooks/use-preview-mode.ts';

function CertificateButton({ record, onShow }: { record: IpRecordView; onShow(r: IpRecordView): void }) {
  if (!record.certificate) return <span className="text-ink-muted">—</span>;
  return (
    <button
      type="button"
      className="min-h-9 text-tea underline underline-offset-4"
      onClick={() => onShow(record)}
    >
      檢視<span className="sr-only">{record.title}證書</span>
    </button>
  );
}

const statusTone = (status: IpRecordView['status']) =>
  status === '有效' ? 'success' : status === '審查中' ? 'amber' : 'neutral';

/** A table from 640 px up; on phones each record is a card, so nothing needs sideways scrolling. */
function Table({
  title,
  records,
  onShow,
}: {
  title: string;
  records: IpRecordView[];
  onShow(r: IpRecordView): void;
}) {
  return (
    <section className="flex flex-col gap-3">
      <h2 className="font-serif text-xl">{title}</h2>
      <div className="relative hidden overflow-x-auto rounded-xl border border-line bg-surface sm:block">
        <table className="w-full text-sm">
          <thead className="bg-paper text-left text-ink-muted">
            <tr>
              <th scope="col" className="px-4 py-3 font-medium">
                證號
              </th>
              <th scope="col" className="px-4 py-3 font-medium">
                名稱
              </th>
              <th scope="col" className="px-4 py-3 font-medium">
                國家
              </th>
              <th scope="col" className="px-4 py-3 font-medium">
                申請日
              </th>
              <th scope="col" className="px-4 py-3 font-medium">
                核准日
              </th>
              <th scope="col" className="px-4 py-3 font-medium">
                狀態
              </th>
              <th scope="col" className="px-4 py-3 font-medium">
                證書
              </th>
            </tr>
          </thead>
          <tbody>
            {records.map((r) => (
              <tr key={r.slug} className="border-t border-line">
                <td className="tabular px-4 py-3 whitespace-nowrap">{r.number}</td>
                <th scope="row" className="px-4 py-3 text-left font-medium">
                  {r.title}
                </th>
                <td className="px-4 py-3 whitespace-nowrap">{r.country}</td>
                <td className="tabular px-4 py-3 whitespace-nowrap">{formatDate(r.filedAt)}</td>
                <td className="tabular px-4 py-3 whitespace-nowrap">
                  {r.grantedAt ? formatDate(r.grantedAt) : '—'}
                </td>
                <td className="px-4 py-3 whitespace-nowrap">
                  <Badge tone={statusTone(r.status)}>{r.status}</Badge>
                </td>
                <td className="px-4 py-3 whitespace-nowrap">
                  <CertificateButton record={r} onShow={onShow} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <ul className="flex flex-col gap-3 sm:hidden">
        {records.map((r) => (
          <li key={r.slug} className="rounded-xl border border-line bg-surface p-4">
            <p className="flex items-start justify-between gap-3">
              <span className="font-medium">{r.title}</span>
              <Badge tone={statusTone(r.status)} className="shrink-0 whitespace-nowrap">
                {r.status}
              </Badge>
            </p>
            <dl className="mt-3 grid grid-cols-[5em_1fr] gap-x-3 gap-y-1 text-sm">
              <dt className="text-ink-muted">證號</dt>
              <dd className="tabular">{r.number}</dd>
              <dt className="text-ink-muted">國家</dt>
              <dd>{r.country}</dd>
              <dt className="text-ink-muted">申請日</dt>
              <dd className="tabular">{formatDate(r.filedAt)}</dd>
              <dt className="text-ink-muted">核准日</dt>
              <dd className="tabular">{r.grantedAt ? formatDate(r.grantedAt) : '—'}</dd>
              <dt className="text-ink-muted">證書</dt>
              <dd>
                <CertificateButton record={r} onShow={onShow} />
              </dd>
            </dl>
          </li>
        ))}
      </ul>
    </section>
  );
}

export function PatentsPage({ preview }: { preview: PreviewMode }) {
  const ip = useQuery(contentQueries.ip(preview.requested));
  const [shown, setShown] = useState<IpRecordView | null>(null);
  return (
    <>
      <PreviewBanner active={preview.active} editor="/admin/content/ip" />
      <Container className="py-10 sm:py-14">
        <PageHeader
          eyebrow="智慧財產"
          title="專利與商標"
          lead="山嵐茶事的焙茶方法、冷泡瓶與品牌名稱，都受到專利與商標保護。"
        />
        <ContentState query={ip}>
          {(records) => (
            <div className="mt-8 flex flex-col gap-10">
              <Table title="專利" records={records.filter((r) => r.kind === 'patent')} onShow={setShown} />
              <Table title="商標" records={records.filter((r) => r.kind === 'trademark')} onShow={setShown} />
            </div>
          )}
        </ContentState>
        <Dialog
          open={shown !== null}
          onClose={() => setShown(null)}
          title={shown ? `${shown.title}證書` : '證書'}
          className="max-w-xl"
        >
          {shown?.certificate && (
            <img
              src={shown.certificate.src}
              srcSet={shown.certificate.srcSet}
              sizes="560px"
              width={shown.certificate.width}
              height={shown.certificate.height}
              alt={shown.certificate.alt}
              className="w-full rounded border border-line"
            />
          )}
        </Dialog>
      </Container>
    </>
  );
}
