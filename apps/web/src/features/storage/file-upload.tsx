import { useRef, useState } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { StorageError, uploadFile, type UploadedObject } from './upload.ts';

type State =
  | { kind: 'idle' }
  | { kind: 'uploading'; percent: number; fileName: string }
  | { kind: 'done'; object: UploadedObject }
  | { kind: 'error'; message: string };

/**
 * Pick a file and upload it with a progress bar and a cancel button (the operations console uses
 * it for product pictures and downloads). Errors are the storage service's zh-TW messages.
 */
export function FileUpload({
  bucket,
  pathPrefix,
  accept,
  label = '選擇檔案',
  onUploaded,
}: {
  bucket: string;
  pathPrefix: string;
  accept?: string;
  label?: string;
  onUploaded?(object: UploadedObject): void;
}) {
  const [state, setState] = useState<State>({ kind: 'idle' });
  const controller = useRef<AbortController | null>(null);

  const start = async (file: File) => {
    controller.current = new AbortController();
    setState({ kind: 'uploading', percent: 0, fileName: file.name });
    try {
      const object = await uploadFile({
        bucket,
        name: `${pathPrefix}/${Date.now().toString(36)}-${file.name.replace(/[^\w.\-\u4e00-\u9fff]/g, '_')}`,
        file,
        signal: controller.current.signal,
        onProgress: (loaded, total) =>
          setState({
            kind: 'uploading',
            percent: total ? Math.round((loaded / total) * 100) : 0,
            fileName: file.name,
          }),
      });
      setState({ kind: 'done', object });
      onUploaded?.(object);
    } catch (error) {
      setState({
        kind: 'error',
        message: error instanceof StorageError ? error.message : '上傳失敗，請稍後再試。',
      });
    }
  };

  return (
    <div className="flex flex-col gap-2">
      <label className="inline-flex w-fit cursor-pointer items-center rounded-md border border-tea/40 bg-surface px-4 py-2 text-tea hover:bg-tea-soft">
        {label}
        <input
          type="file"
          accept={accept}
          className="sr-only"
          disabled={state.kind === 'uploading'}
          onChange={(e) => e.target.files?.[0] && void start(e.target.files[0])}
        />
      </label>
      {state.kind === 'uploading' && (
        <div className="flex items-center gap-3">
          <progress
            max={100}
            value={state.percent}
            aria-label={`上傳 ${state.fileName}`}
            className="h-2 w-48 overflow-hidden rounded accent-tea"
          />
          <span className="tabular text-sm text-ink-muted">{state.percent}%</span>
          <Button variant="ghost" size="sm" onClick={() => controller.current?.abort()}>
            取消
          </Button>
        </div>
      )}
      {state.kind === 'done' && <p className="text-sm text-success">已上傳 {state.object.name}</p>}
      {state.kind === 'error' && (
        <p role="alert" className="text-sm text-danger">
          {state.message}
        </p>
      )}
    </div>
  );
}
