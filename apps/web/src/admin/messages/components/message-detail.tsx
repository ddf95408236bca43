import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { ReplyMessageBody, type AdminMessage } from '@shop/shared/admin-settings';
import { BRAND } from '@shop/shared/brand';
import { Alert } from '../../../components/ui/alert.tsx';
import { Badge } from '../../../components/ui/badge.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { TextAreaField } from '../../../components/ui/field.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { SkeletonText } from '../../../components/ui/skeleton.tsx';
import { textLinkClass } from '../../../components/ui/text-link.tsx';
import { toast } from '../../../components/ui/toast.tsx';
import { LoadError } from '../../../components/load-error.tsx';
import { mailtoHref, telHref } from '../../../lib/links.ts';
import { FORM_MODE, errorMessage, useApiSubmit } from '../../../lib/form.ts';
import { formatTaipeiDateTime } from '@shop/shared/taipei-time';
import { messagesApi } from '../api.ts';
import { messageKeys, messageQuery } from '../queries.ts';

export function HandledBadge({ handledAt }: { handledAt: string | null }) {
  return handledAt ? (
    <Badge tone="success" className="whitespace-nowrap">
      已處理
    </Badge>
  ) : (
    <Badge tone="amber" className="whitespace-nowrap">
      未處理
    </Badge>
  );
}

/** The shop's replies so far, oldest first: what was said, when and by whom. */
function Replies({ replies }: { replies: AdminMessage['replies'] }) {
  if (replies.length === 0) return null;
  return (
    <section aria-label="已回覆">
      <h3 className="mb-2 text-sm font-medium">已回覆（{replies.length}）</h3>
      <ol className="flex flex-col gap-3">
        {replies.map((r) => (
          <li key={r.at} className="rounded-md border border-tea/30 bg-tea-soft/40 p-3">
            <p className="mb-1 text-xs text-ink-muted">
              <span className="tabular">{formatTaipeiDateTime(r.at)}</span>
              {r.by ? `・${r.by}` : ''}
            </p>
            <p className="text-[0.9375rem] leading-relaxed break-words whitespace-pre-wrap">{r.body}</p>
          </li>
        ))}
      </ol>
    </section>
  );
}

/** A reply mailed to the sender from the shop's address, kept with the message. */
function ReplyForm({ m, onSent }: { m: AdminMessage; onSent(next: AdminMessage): void }) {
  const form = useForm<ReplyMessageBody>({
    mode: FORM_MODE,
    resolver: zodResolver(ReplyMessageBody),
    defaultValues: { body: `${m.name} 您好：\n\n感謝您來信詢問。\n\n${BRAND.name} 客服` },
  });
  const { formError, onSubmit } = useApiSubmit(
    form,
    (v) => messagesApi.reply(m.referenceNo, v),
    (next) => {
      form.reset({ body: '' });
      onSent(next);
    },
  );
  return (
    <form onSubmit={(e) => void onSubmit(e)} noValidate className="flex flex-col gap-3" aria-label="回覆來信">
      {formError && <Alert tone="error">{formError}</Alert>}
      <TextAreaField
        label="回覆內容"
        required
        maxLength={2000}
        hint={`會從商店信箱寄到 ${m.email}，附上原來信內容；對方回信會寄到商店信箱。`}
        error={form.formState.errors.body?.message}
        className="min-h-32"
        {...form.register('body')}
      />
      <Button type="submit" className="self-end" loading={form.formState.isSubmitting}>
        寄出回覆
      </Button>
    </form>
  );
}

function Detail({ m, canWrite }: { m: AdminMessage; canWrite: boolean }) {
  const client = useQueryClient();
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const toggle = async () => {
    setSaving(true);
    setError(null);
    try {
      const next = await messagesApi.setHandled(m.referenceNo, !m.handledAt);
      client.setQueryData(messageKeys.detail(m.referenceNo), next);
      await client.invalidateQueries({
        queryKey: messageKeys.all,
        predicate: (q) => q.queryKey[2] !== 'detail',
      });
      toast.success(next.handledAt ? `${m.referenceNo} 已標示為已處理。` : `${m.referenceNo} 已改回未處理。`);
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setSaving(false);
    }
  };
  return (
    <div className="flex flex-col gap-5">
      <dl className="grid grid-cols-[5.5rem_1fr] gap-x-4 gap-y-2 text-sm">
        <dt className="text-ink-muted">狀態</dt>
        <dd className="flex flex-wrap items-center gap-2">
          <HandledBadge handledAt={m.handledAt} />
          {m.handledAt && <span className="tabular text-ink-muted">{formatTaipeiDateTime(m.handledAt)}</span>}
        </dd>
        <dt className="text-ink-muted">來信時間</dt>
        <dd className="tabular">{formatTaipeiDateTime(m.createdAt)}</dd>
        <dt className="text-ink-muted">姓名</dt>
        <dd>{m.name}</dd>
        <dt className="text-ink-muted">電子郵件</dt>
        <dd className="break-all">
          <a href={mailtoHref(m.email)} className={textLinkClass}>
            {m.email}
          </a>
        </dd>
        <dt className="text-ink-muted">電話</dt>
        <dd className="tabular">
          {m.phone ? (
            <a href={telHref(m.phone)} className={textLinkClass}>
              {m.phone}
            </a>
          ) : (
            '未提供'
          )}
        </dd>
        <dt className="text-ink-muted">詢問類別</dt>
        <dd>{m.subject}</dd>
        {m.jobSlug && (
          <>
            <dt className="text-ink-muted">應徵職缺</dt>
            <dd>
              {m.jobTitle ? (
                <a href="/jobs" target="_blank" rel="noopener" className={textLinkClass}>
                  {m.jobTitle}
                  <span className="sr-only">（另開新分頁）</span>
                </a>
              ) : (
                <span>
                  {m.jobSlug}
                  <span className="block text-xs text-ink-muted">這個職缺已不在網站上</span>
                </span>
              )}
            </dd>
          </>
        )}
      </dl>
      <section aria-label="來信內容">
        <h3 className="mb-2 text-sm font-medium">來信內容</h3>
        <p className="max-h-[45dvh] overflow-y-auto rounded-md border border-line bg-paper p-4 text-[0.9375rem] leading-relaxed break-words whitespace-pre-wrap">
          {m.message}
        </p>
      </section>
      <Replies replies={m.replies} />
      {canWrite && (
        <ReplyForm
          m={m}
          onSent={(next) => {
            client.setQueryData(messageKeys.detail(m.referenceNo), next);
            void client.invalidateQueries({
              queryKey: messageKeys.all,
              predicate: (q) => q.queryKey[2] !== 'detail',
            });
            toast.success(`已寄出回覆給 ${m.name}，並標示為已處理。`);
          }}
        />
      )}
      {error && <Alert tone="error">{error}</Alert>}
      <div className="flex flex-wrap justify-end gap-3">
        {canWrite && (
          <Button variant={m.handledAt ? 'ghost' : 'primary'} loading={saving} onClick={() => void toggle()}>
            {m.handledAt ? '改回未處理' : '標示為已處理'}
          </Button>
        )}
      </div>
    </div>
  );
}

/** The whole message in a dialog: who wrote, what about, the text; reply and mark handled. */
export function MessageDialog({
  referenceNo,
  onClose,
  canWrite,
}: {
  referenceNo: string | null;
  onClose(): void;
  canWrite: boolean;
}) {
  const query = useQuery({ ...messageQuery(referenceNo ?? ''), enabled: referenceNo !== null });
  return (
    <Dialog
      open={referenceNo !== null}
      onClose={onClose}
      title={referenceNo ? `客服來信 ${referenceNo}` : '客服來信'}
      className="max-w-2xl"
    >
      {query.isError ? (
        <LoadError title="這封來信暫時無法載入" query={query} />
      ) : query.data ? (
        <Detail m={query.data} canWrite={canWrite} />
      ) : (
        <div role="status" aria-label="載入來信">
          <SkeletonText lines={8} />
        </div>
      )}
    </Dialog>
  );
}
