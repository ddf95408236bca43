import { useState } from 'react';
import { useForm, type FieldValues, type Path, type UseFormReturn } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { RedirectBody, type AdminRedirect, type RedirectInput } from '@shop/shared/admin-settings';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { Checkbox, TextField } from '../../../components/ui/field.tsx';
import { toast } from '../../../components/ui/toast.tsx';
import { ApiError } from '../../../lib/api-error.ts';
import { FORM_MODE, errorMessage } from '../../../lib/form.ts';
import { markFormSaved } from '../../../lib/unsaved-input.ts';
import { redirectsApi } from '../api.ts';
import { redirectKeys } from '../queries.ts';

/**
 * Puts the server's field errors beside their fields (the first one focused); anything else is
 * one message for the form. Typed input is never cleared on an error.
 */
function applyServerError<T extends FieldValues>(
  form: UseFormReturn<T>,
  error: unknown,
  names: readonly Path<T>[],
): string | null {
  const fields =
    error instanceof ApiError
      ? Object.entries(error.fields ?? {}).filter(([name]) => names.includes(name as Path<T>))
      : [];
  fields.forEach(([name, message], i) =>
    form.setError(name as Path<T>, { type: 'server', message }, { shouldFocus: i === 0 }),
  );
  return fields.length > 0 ? null : errorMessage(error);
}

const PERMANENT_HINT = '永久轉址（301）：搜尋引擎會改記新網址。暫時轉址（302）適合短期活動。';

/** Adds a redirect: an old address of this site and where it should go now. */
export function AddRedirectForm() {
  const client = useQueryClient();
  const form = useForm<RedirectInput, unknown, RedirectBody>({
    mode: FORM_MODE,
    resolver: zodResolver(RedirectBody),
    defaultValues: { path: '', target: '', permanent: true },
  });
  const [formError, setFormError] = useState<string | null>(null);
  const errors = form.formState.errors;
  const onSubmit = form.handleSubmit(async (values, event) => {
    setFormError(null);
    try {
      const created = await redirectsApi.create(values);
      markFormSaved(event?.target);
      form.reset({ path: '', target: '', permanent: values.permanent });
      await client.invalidateQueries({ queryKey: redirectKeys.all });
      toast.success(`已新增轉址：${created.path} → ${created.target}`);
    } catch (error) {
      setFormError(applyServerError(form, error, ['path', 'target', 'permanent']));
    }
  });
  return (
    <Card className="flex flex-col gap-4">
      <h2 id="add-redirect-title" className="text-lg font-semibold">
        新增轉址
      </h2>
      <form
        noValidate
        aria-labelledby="add-redirect-title"
        onSubmit={(e) => void onSubmit(e)}
        className="flex flex-col gap-4"
      >
        <div className="grid gap-4 md:grid-cols-2">
          <TextField
            label="原路徑"
            required
            placeholder="/mall/old-oolong"
            autoComplete="off"
            spellCheck={false}
            hint="本站的舊網址，以 / 開頭"
            error={errors.path?.message}
            {...form.register('path')}
          />
          <TextField
            label="導向到"
            required
            placeholder="/mall/dong-ding"
            autoComplete="off"
            spellCheck={false}
            hint="本站的頁面路徑，以 / 開頭"
            error={errors.target?.message}
            {...form.register('target')}
          />
        </div>
        <Checkbox label={PERMANENT_HINT} error={errors.permanent?.message} {...form.register('permanent')} />
        {formError && <Alert tone="error">{formError}</Alert>}
        <div>
          <Button type="submit" loading={form.formState.isSubmitting}>
            {form.formState.isSubmitting ? '新增中…' : '新增轉址'}
          </Button>
        </div>
      </form>
    </Card>
  );
}

/** Changes where an existing redirect goes (the path itself stays; delete and add to move it). */
export function EditRedirectDialog({
  redirect,
  onClose,
}: {
  redirect: AdminRedirect | null;
  onClose(): void;
}) {
  return (
    <Dialog open={redirect !== null} onClose={onClose} title="編輯轉址">
      {redirect && <EditRedirectForm key={redirect.path} redirect={redirect} onDone={onClose} />}
    </Dialog>
  );
}

function EditRedirectForm({ redirect, onDone }: { redirect: AdminRedirect; onDone(): void }) {
  const client = useQueryClient();
  const form = useForm<RedirectInput, unknown, RedirectBody>({
    mode: FORM_MODE,
    resolver: zodResolver(RedirectBody),
    defaultValues: { path: redirect.path, target: redirect.target, permanent: redirect.permanent },
  });
  const [formError, setFormError] = useState<string | null>(null);
  const errors = form.formState.errors;
  const onSubmit = form.handleSubmit(async (values) => {
    setFormError(null);
    try {
      await redirectsApi.update(values);
      await client.invalidateQueries({ queryKey: redirectKeys.all });
      toast.success(`已更新 ${redirect.path} 的轉址。`);
      onDone();
    } catch (error) {
      setFormError(applyServerError(form, error, ['target', 'permanent']));
    }
  });
  return (
    <form noValidate onSubmit={(e) => void onSubmit(e)} className="flex flex-col gap-4">
      <div className="flex flex-col gap-1">
        <p className="text-sm font-medium">原路徑</p>
        <p className="rounded-md bg-paper px-3 py-2 font-mono text-sm break-all">{redirect.path}</p>
      </div>
      <input type="hidden" {...form.register('path')} />
      <TextField
        label="導向到"
        required
        autoComplete="off"
        spellCheck={false}
        hint="本站的頁面路徑，以 / 開頭"
        error={errors.target?.message}
        {...form.register('target')}
      />
      <Checkbox label={PERMANENT_HINT} error={errors.permanent?.message} {...form.register('permanent')} />
      {formError && <Alert tone="error">{formError}</Alert>}
      <div className="flex justify-end gap-3">
        <Button variant="ghost" onClick={onDone}>
          取消
        </Button>
        <Button type="submit" loading={form.formState.isSubmitting}>
          儲存
        </Button>
      </div>
    </form>
  );
}

/** Asks before deleting: the old address stops leading anywhere. */
export function DeleteRedirectDialog({
  redirect,
  onClose,
}: {
  redirect: AdminRedirect | null;
  onClose(): void;
}) {
  const client = useQueryClient();
  const [deleting, setDeleting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const close = () => {
    setError(null);
    onClose();
  };
  const remove = async () => {
    if (!redirect) return;
    setDeleting(true);
    setError(null);
    try {
      await redirectsApi.remove(redirect.path);
      await client.invalidateQueries({ queryKey: redirectKeys.all });
      toast.success(`已刪除 ${redirect.path} 的轉址。`);
      close();
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setDeleting(false);
    }
  };
  return (
    <Dialog
      open={redirect !== null}
      onClose={() => !deleting && close()}
      title="刪除這個轉址？"
      footer={
        <>
          <Button variant="ghost" onClick={close} disabled={deleting}>
            取消
          </Button>
          <Button variant="danger" loading={deleting} onClick={() => void remove()}>
            刪除
          </Button>
        </>
      }
    >
      {redirect && (
        <div className="flex flex-col gap-3 text-sm">
          <p className="rounded-md bg-paper px-3 py-2 font-mono break-all">
            {redirect.path} → {redirect.target}
          </p>
          <p>刪除後，有人開啟舊網址時不會再被導向新頁面。</p>
          {error && <Alert tone="error">{error}</Alert>}
        </div>
      )}
    </Dialog>
  );
}
