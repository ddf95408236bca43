import { useId, useRef, useState } from 'react';
import type { ContentField } from '@shop/shared/admin-content';
import { objectUrl } from '@shop/shared/storage-paths';
import { Button } from '../../../components/ui/button.tsx';
import { cn } from '../../../components/ui/cn.ts';
import { TextField } from '../../../components/ui/field.tsx';
import { StorageError, uploadFile, type UploadedObject } from '../../../features/storage/upload.ts';
import { fieldId, getIn, type EditorContext } from './editor-paths.ts';

type Upload =
  | { kind: 'idle' }
  | { kind: 'uploading'; percent: number; fileName: string }
  | { kind: 'error'; message: string };

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
/** Errors the server names on the object or its parts (`portrait`, `portrait.name`, but `portrait.alt` has its own field). */
const objectError = (errors: Readonly<Record<string, string>>, path: string) =>
  errors[path] ?? Object.entries(errors).find(([k]) => k.startsWith(`${path}.`) && k !== `${path}.alt`)?.[1];

/** Picks a file and uploads it with progress and a cancel button; the storage service's zh-TW errors. */
function useUpload(onDone: (object: UploadedObject) => void) {
  const [state, setState] = useState<Upload>({ kind: 'idle' });
  const controller = useRef<AbortController | null>(null);
  const start = async (file: File, bucket: string, folder: string) => {
    controller.current = new AbortController();
    setState({ kind: 'uploading', percent: 0, fileName: file.name });
    try {
      const object = await uploadFile({
        bucket,
        name: `${folder}/${Date.now().toString(36)}-${file.name.replace(/[^\w.\-\u4e00-\u9fff]/g, '_')}`,
        file,
        signal: controller.current.signal,
        onProgress: (loaded, total) =>
          setState({
            kind: 'uploading',
            percent: total ? Math.round((loaded / total) * 100) : 0,
            fileName: file.name,
          }),
      });
      setState({ kind: 'idle' });
      onDone(object);
    } catch (error) {
      setState({
        kind: 'error',
        message: error instanceof StorageError ? error.message : '上傳失敗，請稍後再試。',
      });
    }
  };
  return { state, start, cancel: () => controller.current?.abort() };
}

function UploadButton({
  label,
  accept,
  disabled,
  onFile,
  describedBy,
}: {
  label: string;
  accept: string;
  disabled: boolean;
  onFile(file: File): void;
  describedBy?: string | undefined;
}) {
  const id = useId();
  return (
    <div>
      {/* A real (visually hidden) file input inside its label: reachable with Tab, opened with Space or Enter. */}
      <label
        htmlFor={id}
        className={cn(
          'inline-flex min-h-11 cursor-pointer items-center rounded-md border border-tea/40 bg-surface px-4 text-tea hover:bg-tea-soft has-[:focus-visible]:outline-3 has-[:focus-visible]:outline-tea-dark',
          disabled && 'pointer-events-none opacity-50',
        )}
      >
        {label}
        <input
          id={id}
          type="file"
          accept={accept}
          className="sr-only"
          disabled={disabled}
          aria-describedby={describedBy}
          onChange={(e) => {
            const file = e.target.files?.[0];
            e.target.value = '';
            if (file) onFile(file);
          }}
        />
      </label>
    </div>
  );
}

function Progress({ state, onCancel }: { state: Upload; onCancel(): void }) {
  if (state.kind === 'uploading') {
    return (
      <div className="flex flex-wrap items-center gap-3">
        <progress
          max={100}
          value={state.percent}
          aria-label={`上傳 ${state.fileName}`}
          className="h-2 w-48 overflow-hidden rounded accent-tea"
        />
        <span className="tabular text-sm text-ink-muted" aria-live="polite">
          {state.percent}%
        </span>
        <Button variant="ghost" size="sm" onClick={onCancel}>
          取消上傳
        </Button>
      </div>
    );
  }
  if (state.kind === 'error') {
    return (
      <p role="alert" className="text-sm text-danger">
        {state.message}
      </p>
    );
  }
  return null;
}

/** A picture in the public `content` bucket: preview, upload with progress, and its alt text. */
export function ContentImageField({
  field,
  path,
  ctx,
}: {
  field: Extract<ContentField, { type: 'image' }>;
  path: string;
  ctx: EditorContext;
}) {
  const value = getIn(ctx.doc, path);
  const image = isRecord(value) && typeof value.name === 'string' && value.name ? value : null;
  const error = objectError(ctx.errors, path);
  const id = fieldId(path);
  const upload = useUpload((object) => {
    ctx.clearErrors(path);
    ctx.update(path, (prev) => ({
      bucket: object.bucket,
      name: object.name,
      alt: isRecord(prev) && typeof prev.alt === 'string' ? prev.alt : '',
      width: object.width ?? 800,
      height: object.height ?? 800,
    }));
  });
  const uploading = upload.state.kind === 'uploading';
  return (
    <fieldset
      id={id}
      tabIndex={-1}
      aria-invalid={error ? true : undefined}
      className="flex flex-col gap-3 focus:outline-none"
    >
      <legend className="mb-1 text-sm font-medium text-ink">{field.label}</legend>
      <div className="flex flex-col gap-4 sm:flex-row sm:items-start">
        <div
          className={cn(
            'flex size-40 shrink-0 items-center justify-center overflow-hidden rounded-lg border bg-paper',
            error ? 'border-danger' : 'border-line',
          )}
        >
          {image ? (
            <img
              src={objectUrl(String(image.bucket), String(image.name))}
              alt=""
              className="size-full object-contain"
            />
          ) : (
            <span className="px-3 text-center text-sm text-ink-muted">尚未上傳圖片</span>
          )}
        </div>
        <div className="flex min-w-0 flex-1 flex-col gap-3">
          {field.hint && <p className="text-sm text-ink-muted">{field.hint}</p>}
          {error && (
            <p id={`${id}-error`} role="alert" className="text-sm text-danger">
              {error}
            </p>
          )}
          {!ctx.readOnly && (
            <div className="flex flex-wrap items-center gap-3">
              <UploadButton
                label={image ? '更換圖片' : '上傳圖片'}
                accept="image/jpeg,image/png,image/webp"
                disabled={uploading}
                describedBy={error ? `${id}-error` : undefined}
                onFile={(f) => void upload.start(f, 'content', field.folder)}
              />
              {field.nullable && image && (
                <Button
                  variant="ghost"
                  size="sm"
                  className="enabled:text-danger"
                  onClick={() => {
                    ctx.clearErrors(path);
                    ctx.update(path, () => null);
                  }}
                >
                  移除圖片
                </Button>
              )}
            </div>
          )}
          <Progress state={upload.state} onCancel={upload.cancel} />
          {image && (
            <TextField
              id={fieldId(`${path}.alt`)}
              label="替代文字"
              value={typeof image.alt === 'string' ? image.alt : ''}
              onChange={(e) => ctx.update(`${path}.alt`, () => e.target.value)}
              disabled={ctx.readOnly}
              required
              error={ctx.errors[`${path}.alt`]}
              hint="描述圖片的內容，給看不到圖片的讀者（最多 120 字）。"
            />
          )}
        </div>
      </div>
    </fieldset>
  );
}

/** A download's PDF: in `members` when the item is members-only, otherwise in `downloads`. */
export function ContentFileField({
  field,
  path,
  ctx,
}: {
  field: Extract<ContentField, { type: 'file' }>;
  path: string;
  ctx: EditorContext;
}) {
  const value = getIn(ctx.doc, path);
  const file =
    isRecord(value) && typeof value.name === 'string' && value.name
      ? { bucket: String(value.bucket), name: value.name }
      : null;
  const membersOnly = ctx.doc.membersOnly === true;
  const bucket = membersOnly ? 'members' : 'downloads';
  const place = (b: string) => (b === 'members' ? '會員專區' : '公開下載區');
  const error = objectError(ctx.errors, path);
  const id = fieldId(path);
  const upload = useUpload((object) => {
    ctx.clearErrors(path);
    ctx.update(path, () => ({ bucket: object.bucket, name: object.name }));
  });
  const misplaced = file && file.bucket !== bucket;
  return (
    <fieldset
      id={id}
      tabIndex={-1}
      aria-invalid={error ? true : undefined}
      className="flex flex-col gap-3 focus:outline-none"
    >
      <legend className="mb-1 text-sm font-medium text-ink">{field.label}</legend>
      {field.hint && <p className="-mt-2 text-sm text-ink-muted">{field.hint}</p>}
      <div
        className={cn(
          'flex flex-col gap-1 rounded-lg border bg-paper/60 px-4 py-3 text-sm',
          error ? 'border-danger' : 'border-line',
        )}
      >
        {file ? (
          <>
            <p className="break-all">
              <span className="text-ink-muted">目前的檔案：</span>
              <a
                href={objectUrl(file.bucket, file.name)}
                target="_blank"
                rel="noopener"
                className="text-tea underline underline-offset-4"
              >
                {file.name.split('/').at(-1)}
              </a>
              <span className="text-ink-muted">（{place(file.bucket)}）</span>
            </p>
            {misplaced && (
              <p className="text-[#7a4f22]">
                這個檔案設為{membersOnly ? '會員限定' : '公開'}，但檔案放在{place(file.bucket)}，請重新上傳到
                {place(bucket)}。
              </p>
            )}
          </>
        ) : (
          <p className="text-ink-muted">尚未上傳檔案</p>
        )}
      </div>
      {error && (
        <p id={`${id}-error`} role="alert" className="text-sm text-danger">
          {error}
        </p>
      )}
      {!ctx.readOnly && (
        <div className="flex flex-wrap items-center gap-3">
          <UploadButton
            label={file ? `重新上傳到${place(bucket)}` : `上傳到${place(bucket)}`}
            accept="application/pdf"
            disabled={upload.state.kind === 'uploading'}
            describedBy={error ? `${id}-error` : undefined}
            onFile={(f) => void upload.start(f, bucket, 'files')}
          />
        </div>
      )}
      <Progress state={upload.state} onCancel={upload.cancel} />
    </fieldset>
  );
}
