import { ButtonLink } from '../../../components/ui/button.tsx';
import { ApiError } from '../../../lib/api-error.ts';
import { errorMessage } from '../../../lib/form.ts';

/** Titles for a link that cannot be used: expired, already used or made up. */
export function actionCodeProblemTitle(error: unknown): string {
  if (error instanceof ApiError && error.code === 'expired-action-code') return '連結已經過期';
  if (error instanceof ApiError && error.code === 'network-request-failed') return '暫時無法確認連結';
  return '連結無效';
}

export function ActionCodeProblem({
  error,
  retryHref,
  retryLabel,
}: {
  error: unknown;
  retryHref: string;
  retryLabel: string;
}) {
  return (
    <div className="flex flex-col items-center gap-4 text-center">
      <p className="text-balance break-keep wrap-anywhere text-ink-muted">{errorMessage(error)}</p>
      <ButtonLink to={retryHref}>{retryLabel}</ButtonLink>
    </div>
  );
}
