import { useMemo, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, Navigate, useParams } from 'react-router';
import {
  CONTENT_KIND_DEFS,
  CONTENT_PAGES,
  TEXT_PAGE_LABELS,
  contentListPath,
  type ContentList,
  type ContentListItem,
} from '@shop/shared/admin-content';
import type { ContentKind, TextPageSlug } from '@shop/shared/content';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button, ButtonLink, buttonClass } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { TextField } from '../../../components/ui/field.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { toast } from '../../../components/ui/toast.tsx';
import { LoadError } from '../../../components/load-error.tsx';
import { errorMessage } from '../../../lib/form.ts';
import { AdminPage, FilterBar } from '../../shared/admin-page.tsx';
import { contentApi } from '../api.ts';
import { useCan } from '../../shared/use-admin-me.ts';
import { useUrlFilters } from '../../shared/use-url-filters.ts';
import { contentKeys, contentListQuery } from '../queries.ts';
import { formatTaipeiDateTime } from '@shop/shared/taipei-time';
import { adminPath } from '@shop/shared/admin-routes';

const isKind = (k: string | undefined): k is ContentKind => Boolean(k && k in CONTENT_KIND_DEFS);

function Arrow({ up }: { up: boolean }) {
  return (
    <svg
      viewBox="0 0 20 20"
      className="size-4"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
      aria-hidden="true"
    >
      <path d={up ? 'M5 12l5-5 5 5' : 'M5 8l5 5 5-5'} />
    </svg>
  );
}

/** /admin/content/:kind — a kind's items: order, show/hide, new, delete. Pages go straight to their editor. */
export default function ContentListPage() {
  const { kind } = useParams();
  if (!isKind(kind)) {
    return (
      <EmptyState
        title="沒有這種網站內容"
        description="網址可能有誤。"
        action={<ButtonLink to={adminPath.content()}>回到網站內容</ButtonLink>}
      />
    );
  }
  const pages = CONTENT_PAGES[kind];
  if (pages && pages.length === 1) return <Navigate to={adminPath.contentEdit(kind, pages[0]!)} replace />;
  return <KindList key={kind} kind={kind} />;
}

function KindList({ kind }: { kind: ContentKind }) {
  const def = CONTENT_KIND_DEFS[kind];
  const canWrite = useCan('content.write');
  const queryClient = useQueryClient();
  const list = useQuery(contentListQuery(kind));
  const { filters, setFilters } = useUrlFilters({ q: '' });
  const [order, setOrder] = useState<string[] | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const [busy, setBusy] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<ContentListItem | null>(null);
  const [deletePending, setDeletePending] = useState(false);
  const buttons = useRef(new Map<string, HTMLButtonElement>());
  const queue = useRef<{ sending: boolean; next: string[] | null }>({ sending: false, next: null });

  const items = useMemo(() => {
    const all = list.data?.items ?? [];
    if (!order) return all;
    return order.flatMap((slug) => all.filter((i) => i.slug === slug));
  }, [list.data, order]);
  const q = filters.q.trim().toLowerCase();
  const shown = q
    ? items.filter((i) => `${i.title} ${i.subtitle ?? ''} ${i.slug}`.toLowerCase().includes(q))
    : items;
  const canReorder = canWrite && def.orderable && !def.single && !q;

  const refresh = () => queryClient.invalidateQueries({ queryKey: contentKeys.all });

  /** Sends the newest order; moves made while a request is out are sent once it is back. */
  const send = async () => {
    const state = queue.current;
    if (state.sending || !state.next) return;
    const slugs = state.next;
    state.next = null;
    state.sending = true;
    try {
      const saved = await contentApi.reorder(kind, slugs);
      if (!queue.current.next) {
        queryClient.setQueryData<ContentList>(contentKeys.list(kind), saved);
        setOrder(null);
      }
    } catch (error) {
      queue.current.next = null;
      setOrder(null);
      toast.error(`順序沒有儲存：${errorMessage(error)}`);
      void refresh();
    } finally {
      state.sending = false;
      if (queue.current.next) void send();
      else void queryClient.invalidateQueries({ queryKey: contentKeys.overview() });
    }
  };

  const move = (item: ContentListItem, by: -1 | 1) => {
    const slugs = items.map((i) => i.slug);
    const from = slugs.indexOf(item.slug);
    const to = from + by;
    if (to < 0 || to >= slugs.length) return;
    slugs.splice(from, 1);
    slugs.splice(to, 0, item.slug);
    flushSync(() => {
      setOrder(slugs);
      setAnnouncement(`已將「${item.title}」移到第 ${to + 1} 位`);
    });
    // Keep the keyboard on the item that moved; at either end, on the button that still works.
    const direction = to === 0 ? 'down' : to === slugs.length - 1 ? 'up' : by < 0 ? 'up' : 'down';
    buttons.current.get(`${item.slug}:${direction}`)?.focus();
    queue.current.next = slugs;
    void send();
  };

  const toggle = async (item: ContentListItem) => {
    setBusy(item.slug);
    try {
      await contentApi.setVisibility(kind, item.slug, !item.published);
      toast.success(
        item.published ? `「${item.title}」已隱藏，訪客看不到了。` : `「${item.title}」已顯示在網站上。`,
      );
      await refresh();
    } catch (error) {
      toast.error(errorMessage(error));
    } finally {
      setBusy(null);
    }
  };

  const remove = async () => {
    if (!deleting) return;
    setDeletePending(true);
    try {
      await contentApi.remove(kind, deleting.slug);
      toast.success(`已刪除「${deleting.title}」。`);
      setDeleting(null);
      await refresh();
    } catch (error) {
      toast.error(errorMessage(error));
    } finally {
      setDeletePending(false);
    }
  };

  const listPath = contentListPath(kind);

  return (
    <AdminPage
      title={def.label}
      back={{ to: adminPath.content(), label: '網站內容' }}
      description={def.description}
      actions={
        <>
          {listPath && (
            <a
              href={`${listPath}?preview=1`}
              target="_blank"
              rel="noopener"
              className={buttonClass('secondary', 'md')}
            >
              預覽網站頁面<span className="sr-only">（另開新分頁）</span>
            </a>
          )}
          {canWrite && !def.single && (
            <ButtonLink to={adminPath.contentEdit(kind, 'new')}>新增{def.itemLabel}</ButtonLink>
          )}
        </>
      }
    >
      {!def.single && (
        <FilterBar label={`搜尋${def.label}`}>
          <TextField
            label="搜尋"
            type="search"
            value={filters.q}
            onChange={(e) => setFilters({ q: e.target.value })}
            placeholder={`${def.itemLabel}名稱或代碼`}
            containerClassName="w-full sm:w-80"
          />
        </FilterBar>
      )}
      {def.orderNote && <p className="text-sm text-ink-muted">{def.orderNote}</p>}
      {canWrite && def.orderable && q && <p className="text-sm text-ink-muted">清除搜尋後才能調整順序。</p>}
      {list.isError && <LoadError title="清單暫時無法載入" query={list} />}
      {list.isPending && (
        <ul
          aria-label="載入中"
          className="flex flex-col divide-y divide-line rounded-xl border border-line bg-surface"
        >
          {Array.from({ length: 6 }, (_, i) => (
            <li key={i} className="flex items-center gap-4 px-4 py-4">
              <Skeleton className="h-5 w-8" />
              <Skeleton className="h-5 w-full max-w-80" />
            </li>
          ))}
        </ul>
      )}
      {list.data && items.length === 0 && (
        <EmptyState
          title={`還沒有任何${def.itemLabel}`}
          action={
            canWrite ? (
              <ButtonLink to={adminPath.contentEdit(kind, 'new')}>新增{def.itemLabel}</ButtonLink>
            ) : undefined
          }
        />
      )}
      {list.data && items.length > 0 && shown.length === 0 && (
        <EmptyState
          title="找不到符合的項目"
          description="換個關鍵字試試。"
          action={
            <Button variant="secondary" onClick={() => setFilters({ q: '' })}>
              清除搜尋
            </Button>
          }
        />
      )}
      {shown.length > 0 && (
        <ol
          aria-label={`${def.label}（依網站上的順序）`}
          className="flex flex-col divide-y divide-line rounded-xl border border-line bg-surface"
        >
          {shown.map((item) => {
            const index = items.indexOf(item);
            const name = kind === 'textPage' ? TEXT_PAGE_LABELS[item.slug as TextPageSlug] : item.title;
            return (
              <li key={item.slug} className="flex flex-wrap items-center gap-x-4 gap-y-2 px-4 py-3">
                {canReorder ? (
                  <div className="flex items-center gap-1">
                    <span className="tabular w-6 text-right text-sm text-ink-muted" aria-hidden="true">
                      {index + 1}
                    </span>
                    <button
                      type="button"
                      ref={(el) => {
                        if (el) buttons.current.set(`${item.slug}:up`, el);
                        else buttons.current.delete(`${item.slug}:up`);
                      }}
                      aria-label={`上移「${item.title}」`}
                      aria-disabled={index === 0}
                      onClick={() => move(item, -1)}
                      className="inline-flex size-11 sm:size-9 items-center justify-center rounded-md border border-line text-ink hover:bg-tea-soft aria-disabled:cursor-not-allowed aria-disabled:text-ink-muted/40 aria-disabled:hover:bg-transparent"
                    >
                      <Arrow up />
                    </button>
                    <button
                      type="button"
                      ref={(el) => {
                        if (el) buttons.current.set(`${item.slug}:down`, el);
                        else buttons.current.delete(`${item.slug}:down`);
                      }}
                      aria-label={`下移「${item.title}」`}
                      aria-disabled={index === items.length - 1}
                      onClick={() => move(item, 1)}
                      className="inline-flex size-11 sm:size-9 items-center justify-center rounded-md border border-line text-ink hover:bg-tea-soft aria-disabled:cursor-not-allowed aria-disabled:text-ink-muted/40 aria-disabled:hover:bg-transparent"
                    >
                      <Arrow up={false} />
                    </button>
                  </div>
                ) : (
                  def.orderable && (
                    <span className="tabular w-6 text-right text-sm text-ink-muted" aria-hidden="true">
                      {index + 1}
                    </span>
                  )
                )}
                <div className="flex min-w-0 flex-1 basis-48 flex-col gap-0.5">
                  <Link
                    to={adminPath.contentEdit(kind, item.slug)}
                    className="font-medium text-ink underline-offset-4 hover:text-tea hover:underline"
                  >
                    {name}
                  </Link>
                  <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-ink-muted">
                    {item.subtitle && <span>{item.subtitle}</span>}
                    <span className="tabular">更新於 {formatTaipeiDateTime(item.updatedAt)}</span>
                    {!item.published && <Badge tone="neutral">隱藏中</Badge>}
                    {item.hasDraft && <Badge tone="amber">有草稿</Badge>}
                  </p>
                </div>
                {canWrite && !def.single && (
                  <div className="flex flex-wrap gap-2">
                    <Button
                      size="sm"
                      variant="secondary"
                      loading={busy === item.slug}
                      onClick={() => void toggle(item)}
                    >
                      {item.published ? '隱藏' : '顯示'}
                      <span className="sr-only">「{item.title}」</span>
                    </Button>
                    <Button
                      size="sm"
                      variant="ghost"
                      className="enabled:text-danger"
                      onClick={() => setDeleting(item)}
                    >
                      刪除<span className="sr-only">「{item.title}」</span>
                    </Button>
                  </div>
                )}
              </li>
            );
          })}
        </ol>
      )}
      <p className="sr-only" aria-live="polite">
        {announcement}
      </p>
      <Dialog
        open={deleting !== null}
        onClose={() => setDeleting(null)}
        title={`刪除${def.itemLabel}`}
        footer={
          <>
            <Button variant="secondary" onClick={() => setDeleting(null)}>
              取消
            </Button>
            <Button variant="danger" loading={deletePending} onClick={() => void remove()}>
              刪除
            </Button>
          </>
        }
      >
        <p>
          確定要刪除「{deleting?.title}」嗎？網站上會立即移除，
          {deleting?.hasDraft ? '尚未發布的草稿也會一起刪除，' : ''}刪除後無法復原。
        </p>
        {deleting?.published && (
          <p className="mt-2 text-sm text-ink-muted">只想暫時不讓訪客看到，可以改用「隱藏」。</p>
        )}
      </Dialog>
    </AdminPage>
  );
}
