import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { formatTaipeiDate } from '@shop/shared/taipei-time';
import {
  LAST_SIGN_IN_METHOD_MESSAGE,
  SOCIAL_PROVIDER_NAMES,
  socialStartPath,
  type SocialProviderId,
} from '@shop/shared/social-sign-in';
import { Alert } from '../../../components/ui/alert.tsx';
import { Button, buttonClass } from '../../../components/ui/button.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { errorMessage } from '../../../lib/form.ts';
import { signInMethodsQueryOptions, socialApi } from '../api/social-api.ts';
import { GoogleMark, LineMark } from './social-sign-in-buttons.tsx';

function ProviderMark({ provider }: { provider: SocialProviderId }) {
  return provider === 'line' ? (
    <span className="flex size-9 items-center justify-center rounded-md bg-[#06C755]">
      <LineMark className="size-8" />
    </span>
  ) : (
    <span className="flex size-9 items-center justify-center rounded-md border border-line bg-white">
      <GoogleMark className="size-5" />
    </span>
  );
}

/**
 * 登入方式: the password and the linked LINE and Google sign-ins, with link and unlink. The last
 * way in cannot be unlinked (the server refuses it too; docs/product-rules.md#signing-in-with-line-or-google).
 */
export function SignInMethods() {
  const client = useQueryClient();
  const methods = useQuery(signInMethodsQueryOptions());
  const [error, setError] = useState<string | null>(null);
  const unlink = useMutation({
    mutationFn: socialApi.unlink,
    onMutate: () => setError(null),
    onError: (e) => setError(errorMessage(e)),
    onSettled: () => client.invalidateQueries({ queryKey: signInMethodsQueryOptions().queryKey }),
  });
  if (!methods.data) return <Skeleton className="h-28" />;
  const { password, identities, available } = methods.data;
  const ways = identities.length + (password ? 1 : 0);
  const unlinked = available.filter((p) => !identities.some((i) => i.provider === p));
  return (
    <div className="flex flex-col gap-4">
      {error && <Alert tone="error">{error}</Alert>}
      <ul className="divide-y divide-line">
        <li className="flex items-center gap-3 py-3">
          <span className="flex size-9 items-center justify-center rounded-md border border-line bg-paper text-tea">
            <svg
              viewBox="0 0 24 24"
              className="size-5"
              fill="none"
              stroke="currentColor"
              strokeWidth="1.6"
              aria-hidden="true"
            >
              <rect x="5" y="10.5" width="14" height="9.5" rx="1.5" />
              <path d="M8 10.5V7.5a4 4 0 0 1 8 0v3" />
            </svg>
          </span>
          <span className="flex flex-1 flex-col">
            <span className="font-medium">電子郵件與密碼</span>
            <span className="text-sm text-ink-muted">
              {password ? '已設定密碼' : '尚未設定密碼，可用「忘記密碼」寄信設定'}
            </span>
          </span>
        </li>
        {identities.map((identity) => {
          const name = SOCIAL_PROVIDER_NAMES[identity.provider];
          const last = ways <= 1;
          return (
            <li key={identity.provider} className="flex flex-wrap items-center gap-3 py-3">
              <ProviderMark provider={identity.provider} />
              <span className="flex min-w-48 flex-1 flex-col">
                <span className="font-medium">{name}</span>
                <span className="text-sm break-all text-ink-muted">
                  {formatTaipeiDate(identity.linkedAt)} 連結{identity.email ? `・${identity.email}` : ''}
                </span>
                {last && <span className="text-sm text-ink-muted">{LAST_SIGN_IN_METHOD_MESSAGE}</span>}
              </span>
              <Button
                variant="secondary"
                size="sm"
                className="ml-auto"
                disabled={last}
                loading={unlink.isPending && unlink.variables === identity.provider}
                onClick={() => unlink.mutate(identity.provider)}
                aria-label={`取消連結 ${name}`}
              >
                取消連結
              </Button>
            </li>
          );
        })}
      </ul>
      {unlinked.length > 0 && (
        <div className="flex flex-wrap gap-3">
          {unlinked.map((provider) => (
            <a
              key={provider}
              href={socialStartPath(provider, { link: true })}
              className={buttonClass('secondary', 'sm')}
            >
              連結 {SOCIAL_PROVIDER_NAMES[provider]}
            </a>
          ))}
        </div>
      )}
    </div>
  );
}
