import { useCallback, useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { flushSync } from 'react-dom';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useBlocker, useNavigate, useParams } from 'react-router';
import {
  CONTENT_KIND_DEFS,
  TEXT_PAGE_LABELS,
  contentFieldTrail,
  contentItemTitle,
  contentPreviewPath,
  newContentDocument,
  type ContentDocument,
} from '@shop/shared/admin-content';
import type { ContentKind, TextPageSlug } from '@shop/shared/content';
import { Alert } from '../../../components/ui/alert.tsx';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button, ButtonLink } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { SkeletonText } from '../../../components/ui/skeleton.tsx';
import { toast } from '../../../components/ui/toast.tsx';
import { LoadError } from '../../../components/load-error.tsx';
import { ApiError } from '../../../lib/api-error.ts';
import { errorMessage } from '../../../lib/form.ts';
import { AdminPage } from '../../shared/admin-page.tsx';
import { contentApi } from '../api.ts';
import { ObjectFields } from '../components/content-fields.tsx';
import { fieldId, updateIn, type EditorContext } from '../components/editor-paths.ts';
import { useCan } from '../../shared/use-admin-me.ts';
import { contentItemQuery, contentKeys, contentListQuery } from '../queries.ts';
import { formatTaipeiDateTime } from '@shop/shared/taipei-time';
import { adminPath } from '@shop/shared/admin-routes';

type Doc = Record<string, unknown>;
const isKind = (k: string | undefined): k is ContentKind => Boolean(k && k in CONTENT_KIND_DEFS);
const backTo = (kind: ContentKind) =>
  CONTENT_KIND_DEFS[kind].single
    ? { to: adminPath.content(), label: '網站內容' }
    : { to: adminPath.contentList(kind), label: CONTENT_KIND_DEFS[kind].label };

/** /admin/content/:kind/:slug (and :kind/new) — the editor of one document. */
export default function ContentEditPage() {
  const { kind, slug = '' } = useParams();
  const canWrite = useCan('content.write');
  if (!isKind(kind)) {
    return (
      <EmptyState
        title="沒有這種網站內容"
        description="網址可能有誤。"
        action={<ButtonLink to={adminPath.content()}>回到網站內容</ButtonLink>}
      />
    );
  }
  if (slug === 'new') {
    if (CONTENT_KIND_DEFS[kind].single)
      return (
        <EmptyState
          title="這是固定頁面，不能新增"
          action={<ButtonLink to={adminPath.content()}>回到網站內容</ButtonLink>}
        />
      );
    if (!canWrite)
      return (
        <EmptyState
          title="您的角色沒有權限新增內容"
          description="如需使用，請洽店主調整您的角色。"
          action={<ButtonLink to={adminPath.contentList(kind)}>回到清單</ButtonLink>}
        />
      );
    return <Editor key={`${kind}/new`} kind={kind} slug={null} item={null} />;
  }
  return <Existing key={`${kind}/${slug}`} kind={kind} slug={slug} />;
}

function Existing({ kind, slug }: { kind: ContentKind; slug: string }) {
  const item = useQuery(contentItemQuery(kind, slug));
  if (item.data) return <Editor kind={kind} slug={slug} item={item.data} />;
  if (item.error instanceof ApiError && item.error.status === 404) {
    return (
      <EmptyState
        title="找不到這筆內容"
        description="可能已被刪除，或網址有誤。"
        action={<ButtonLink to={backTo(kind).to}>回到{backTo(kind).label}</ButtonLink>}
      />
    );
  }
  return (
    <AdminPage title={CONTENT_KIND_DEFS[kind].label} back={backTo(kind)}>
      {item.isError ? (
        <LoadError title="內容暫時無法載入" query={item} />
      ) : (
        <div
          role="status"
          aria-label="載入中"
          className="max-w-3xl rounded-xl border border-line bg-surface p-6"
        >
          <SkeletonText lines={10} />
        </div>
      )}
    </AdminPage>
  );
}

function pageTitle(kind: ContentKind, slug: string | null, doc: Doc): string {
  const def = CONTENT_KIND_DEFS[kind];
  if (slug === null) return `新增${def.itemLabel}`;
  if (kind === 'textPage') return TEXT_PAGE_LABELS[slug as TextPageSlug] ?? def.label;
  if (def.single) return def.label;
  return contentItemTitle(kind, doc).title;
}

type Busy = 'save' | 'publish' | 'discard' | 'create' | 'visibility' | null;

function Editor({
  kind,
  slug,
  item: initial,
}: {
  kind: ContentKind;
  slug: string | null;
  item: ContentDocument | null;
}) {
  const def = CONTENT_KIND_DEFS[kind];
  const canWrite = useCan('content.write');
  const readOnly = !canWrite;
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const formRef = useRef<HTMLFormElement>(null);
  const allowLeave = useRef(false);

  const [item, setItem] = useState(initial);
  const [doc, setDoc] = useState<Doc>(() =>
    initial ? (initial.draft ?? initial.data) : newContentDocument(kind),
  );
  const [baseline, setBaseline] = useState(() => JSON.stringify(doc));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [busy, setBusy] = useState<Busy>(null);
  const [confirm, setConfirm] = useState<'publish' | 'discard' | null>(null);
  const [version, setVersion] = useState(0);
  const dirty = JSON.stringify(doc) !== baseline;

  const categoriesQuery = useQuery({ ...contentListQuery('faqCategory'), enabled: kind === 'faq' });
  const categories = useMemo(
    () =>
      (categoriesQuery.data?.items ?? []).map((c) => ({
        value: c.slug,
        label: c.published ? c.title : `${c.title}（隱藏中）`,
      })),
    [categoriesQuery.data],
  );

  const update = useCallback(
    (path: string, change: (previous: unknown) => unknown) =>
      setDoc((prev) => updateIn(prev, path, change) as Doc),
    [],
  );
  const clearErrors = useCallback(
    (path: string) =>
      setErrors((prev) => {
        const keys = Object.keys(prev).filter((k) => k === path || k.startsWith(`${path}.`));
        if (keys.length === 0) return prev;
        const next = { ...prev };
        for (const k of keys) delete next[k];
        return next;
      }),
    [],
  );
  const ctx: EditorContext = useMemo(
    () => ({
      errors,
      readOnly,
      isNew: slug === null,
      categories,
      doc,
      update: (path, change) => {
        update(path, change);
        clearErrors(path);
      },
      clearErrors,
    }),
    [errors, readOnly, slug, categories, doc, update, clearErrors],
  );

  // Leaving with unsaved changes asks first: inside the app, and when the tab is closed or reloaded.
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      !allowLeave.current && dirty && currentLocation.pathname !== nextLocation.pathname,
  );
  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);

  const refreshLists = () => {
    void queryClient.invalidateQueries({ queryKey: contentKeys.overview() });
    void queryClient.invalidateQueries({ queryKey: contentKeys.list(kind) });
  };
  /**
   * The server's answer becomes the editor's state. `sent`: the document that was saved, replaced by
   * the stored (tidied) one unless something was typed meanwhile; 'replace' after a discard; 'keep'
   * after publishing (the editor already holds what was published, or newer typing).
   */
  const accept = (saved: ContentDocument, sent: Doc | 'replace' | 'keep') => {
    const current = saved.draft ?? saved.data;
    setItem(saved);
    setBaseline(JSON.stringify(current));
    if (sent !== 'keep') setDoc((prev) => (sent === 'replace' || prev === sent ? current : prev));
    setErrors({});
    setFormError(null);
    queryClient.setQueryData(contentKeys.item(kind, saved.slug), saved);
    formRef.current?.dispatchEvent(new Event('reset'));
    refreshLists();
  };

  /** Field errors beside their fields, the first one focused; anything else in the message at the top. */
  const showError = (error: unknown) => {
    const fields = error instanceof ApiError && error.status === 400 ? error.fields : undefined;
    flushSync(() => {
      setErrors(fields ?? {});
      setFormError(errorMessage(error));
    });
    if (!fields) {
      document.getElementById('content-form-error')?.focus();
      return;
    }
    const targets = Object.keys(fields)
      .map(
        (k) =>
          document.getElementById(fieldId(k)) ??
          document.getElementById(fieldId(k.split('.').slice(0, -1).join('.'))),
      )
      .filter((el): el is HTMLElement => el !== null)
      .sort((a, b) => (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1));
    const first = targets[0] ?? document.getElementById('content-form-error');
    first?.focus();
    first?.scrollIntoView({ block: 'center' });
  };

  const saveDraft = async (): Promise<ContentDocument | null> => {
    if (slug === null) return null;
    const sent = doc;
    setBusy('save');
    try {
      const saved = await contentApi.saveDraft(kind, slug, sent, item?.revision);
      accept(saved, sent);
      return saved;
    } catch (error) {
      showError(error);
      return null;
    } finally {
      setBusy(null);
    }
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (readOnly || busy) return;
    if (slug === null) {
      setBusy('create');
      try {
        const created = await contentApi.create(kind, doc);
        queryClient.setQueryData(contentKeys.item(kind, created.slug), created);
        refreshLists();
        allowLeave.current = true;
        toast.success(
          `已建立「${contentItemTitle(kind, created.data).title}」。目前隱藏中，確認後按「在網站上顯示」。`,
        );
        await navigate(adminPath.contentEdit(kind, created.slug), { replace: true });
      } catch (error) {
        showError(error);
      } finally {
        setBusy(null);
      }
      return;
    }
    if (await saveDraft()) toast.success('草稿已儲存。網站上的內容不變，按「發布」後才會更新。');
  };

  const preview = async () => {
    if (slug === null) return;
    const url = contentPreviewPath(kind, slug);
    if (!dirty || readOnly) {
      window.open(url, '_blank', 'noopener');
      return;
    }
    // Opened during the click (browsers block a window opened later), pointed at the preview once the draft is saved.
    const tab = window.open('', '_blank');
    const saved = await saveDraft();
    if (saved && tab) tab.location.href = url;
    else tab?.close();
  };

  const publish = async () => {
    if (slug === null) return;
    setConfirm(null);
    // Publish exactly what this editor saw (or just saved), never a draft someone else saved meanwhile.
    let revision = item?.revision;
    if (dirty) {
      const saved = await saveDraft();
      if (!saved) return;
      revision = saved.revision;
    }
    setBusy('publish');
    try {
      const published = await contentApi.publish(kind, slug, revision);
      accept(published, 'keep');
      toast.success('已發布，訪客現在看到的是新的內容。');
    } catch (error) {
      showError(error);
    } finally {
      setBusy(null);
    }
  };

  const discard = async () => {
    if (slug === null || !item) return;
    setConfirm(null);
    if (!item.draft) {
      // Only unsaved changes: back to what is stored, no request needed.
      setDoc(item.data);
      setErrors({});
      setFormError(null);
      setVersion((v) => v + 1);
      return;
    }
    setBusy('discard');
    try {
      const restored = await contentApi.discard(kind, slug);
      accept(restored, 'replace');
      setVersion((v) => v + 1);
      toast.success('草稿已捨棄，編輯器已回到已發布的版本。');
    } catch (error) {
      showError(error);
    } finally {
      setBusy(null);
    }
  };

  const setVisible = async (published: boolean) => {
    if (slug === null) return;
    setBusy('visibility');
    try {
      const updated = await contentApi.setVisibility(kind, slug, published);
      setItem(updated);
      queryClient.setQueryData(contentKeys.item(kind, slug), updated);
      refreshLists();
      toast.success(published ? '已顯示在網站上。' : '已隱藏，訪客看不到了。');
    } catch (error) {
      toast.error(errorMessage(error));
    } finally {
      setBusy(null);
    }
  };

  const errorList = Object.entries(errors);
  const title = pageTitle(kind, slug, item ? (item.draft ?? item.data) : doc);
  const hasDraft = Boolean(item?.draft);

  return (
    <AdminPage
      title={title}
      back={backTo(kind)}
      description={
        item ? (
          <span className="flex flex-wrap items-center gap-2">
            <span>{def.single ? def.label : def.itemLabel}</span>
            {!def.single && (
              <Badge tone={item.published ? 'success' : 'neutral'}>
                {item.published ? '顯示中' : '隱藏中'}
              </Badge>
            )}
            {hasDraft && <Badge tone="amber">有草稿</Badge>}
            <span className="tabular">最後更新 {formatTaipeiDateTime(item.updatedAt)}</span>
          </span>
        ) : (
          '填好內容後按「建立」。新項目先隱藏，預覽確認後再顯示在網站上。'
        )
      }
    >
      <div className="flex max-w-4xl flex-col gap-4">
        {readOnly && <Alert tone="info">您的角色只能檢視網站內容，無法修改。</Alert>}
        {hasDraft && item && (
          <Alert tone="warning" title="這份內容有尚未發布的草稿">
            草稿最後儲存於 {formatTaipeiDateTime(item.updatedAt)}
            。訪客目前看到的仍是已發布的版本；按「預覽」看草稿，按「發布」後網站才會更新。
          </Alert>
        )}
        {item && !def.single && !item.published && (
          <Alert
            tone="info"
            title="這個項目目前隱藏，訪客看不到"
            action={
              canWrite ? (
                <Button
                  size="sm"
                  variant="secondary"
                  loading={busy === 'visibility'}
                  onClick={() => void setVisible(true)}
                >
                  在網站上顯示
                </Button>
              ) : undefined
            }
          >
            預覽時仍會出現，方便確認內容。
          </Alert>
        )}
        {formError && (
          <div id="content-form-error" tabIndex={-1} className="focus:outline-none">
            <Alert tone="error" title="尚未儲存">
              <p>{formError}</p>
              {errorList.length > 1 && (
                <ul className="mt-2 list-disc pl-5">
                  {errorList.slice(0, 8).map(([key, message]) => (
                    <li key={key}>
                      <button
                        type="button"
                        className="text-left underline underline-offset-4"
                        onClick={() => {
                          const el =
                            document.getElementById(fieldId(key)) ??
                            document.getElementById(fieldId(key.split('.').slice(0, -1).join('.')));
                          el?.focus();
                          el?.scrollIntoView({ block: 'center' });
                        }}
                      >
                        {contentFieldTrail(kind, doc, key)}：{message}
                      </button>
                    </li>
                  ))}
                  {errorList.length > 8 && <li>還有 {errorList.length - 8} 個欄位</li>}
                </ul>
              )}
              <p className="mt-1">您輸入的內容都還在，修正後再儲存即可。</p>
            </Alert>
          </div>
        )}

        <form
          ref={formRef}
          noValidate
          onSubmit={(e) => void onSubmit(e)}
          aria-label={slug === null ? title : `編輯${title}`}
          className="flex flex-col gap-6"
        >
          <div key={version} className="rounded-xl border border-line bg-surface p-4 shadow-card sm:p-6">
            <ObjectFields fields={def.fields} path="" ctx={ctx} />
          </div>

          {!readOnly || slug !== null ? (
            <div className="sticky bottom-0 z-10 -mx-4 flex flex-wrap items-center gap-2 border-t border-line bg-surface/95 px-4 py-3 backdrop-blur sm:-mx-6 sm:px-6 lg:mx-0 lg:rounded-xl lg:border lg:shadow-card">
              {slug === null ? (
                <>
                  <Button type="submit" loading={busy === 'create'}>
                    建立（先隱藏）
                  </Button>
                  <ButtonLink to={adminPath.contentList(kind)} variant="ghost">
                    取消
                  </ButtonLink>
                </>
              ) : (
                <>
                  {!readOnly && (
                    <Button
                      type="submit"
                      loading={busy === 'save'}
                      disabled={busy !== null && busy !== 'save'}
                    >
                      儲存草稿
                    </Button>
                  )}
                  <Button variant="secondary" onClick={() => void preview()} disabled={busy !== null}>
                    預覽<span className="sr-only">（另開新分頁）</span>
                  </Button>
                  {!readOnly && (
                    <>
                      <Button
                        variant="secondary"
                        onClick={() => setConfirm('publish')}
                        disabled={(!hasDraft && !dirty) || busy !== null}
                        loading={busy === 'publish'}
                      >
                        發布
                      </Button>
                      <Button
                        variant="ghost"
                        className="enabled:text-danger"
                        onClick={() => setConfirm('discard')}
                        disabled={(!hasDraft && !dirty) || busy !== null}
                        loading={busy === 'discard'}
                      >
                        捨棄草稿
                      </Button>
                    </>
                  )}
                  <p className="ml-auto text-sm text-ink-muted" aria-live="polite">
                    {dirty ? '有尚未儲存的修改' : hasDraft ? '草稿已儲存，尚未發布' : '與網站上的內容相同'}
                  </p>
                </>
              )}
            </div>
          ) : null}
        </form>
      </div>

      <Dialog
        open={confirm === 'publish'}
        onClose={() => setConfirm(null)}
        title="發布到網站？"
        footer={
          <>
            <Button variant="secondary" onClick={() => setConfirm(null)}>
              再看看
            </Button>
            <Button onClick={() => void publish()}>發布</Button>
          </>
        }
      >
        <p>發布後，訪客會立即看到「{title}」的新內容。</p>
        {dirty && <p className="mt-2 text-sm text-ink-muted">尚未儲存的修改會先存成草稿再發布。</p>}
      </Dialog>
      <Dialog
        open={confirm === 'discard'}
        onClose={() => setConfirm(null)}
        title={hasDraft ? '捨棄草稿？' : '放棄修改？'}
        footer={
          <>
            <Button variant="secondary" onClick={() => setConfirm(null)}>
              保留
            </Button>
            <Button variant="danger" onClick={() => void discard()}>
              {hasDraft ? '捨棄草稿' : '放棄修改'}
            </Button>
          </>
        }
      >
        <p>
          {hasDraft
            ? '草稿中的修改會全部刪除，編輯器會回到網站上目前的版本。這個動作無法復原。'
            : '尚未儲存的修改會全部清除，回到上次儲存的內容。'}
        </p>
      </Dialog>
      <Dialog
        open={blocker.state === 'blocked'}
        onClose={() => blocker.reset?.()}
        title="離開這個頁面？"
        footer={
          <>
            <Button variant="secondary" onClick={() => blocker.reset?.()}>
              留下來繼續編輯
            </Button>
            <Button variant="danger" onClick={() => blocker.proceed?.()}>
              離開，不儲存
            </Button>
          </>
        }
      >
        <p>有尚未儲存的修改，離開後會遺失。</p>
      </Dialog>
    </AdminPage>
  );
}
