import { queryOptions, useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import {
  SOCIAL_PROBLEMS,
  SocialProblem,
  socialStartPath,
  type SocialProviderId,
  type SocialProvidersResponse,
} from '@shop/shared/social-sign-in';
import { Alert } from '../../../components/ui/alert.tsx';
import { cn } from '../../../components/ui/cn.ts';
import { textLinkClass } from '../../../components/ui/text-link.tsx';
import { paths } from '../../../config/paths.ts';
import { apiGet } from '../../../lib/api-client.ts';

// What the sign-in, sign-up and member pages show of LINE and Google sits in this one module, which
// those pages load lazily: the first load of `/` lists every page's own files and must not grow.

/** Which providers the shop offers (production hides one without credentials). */
export const socialProvidersQueryOptions = () =>
  queryOptions({
    queryKey: ['auth', 'social-providers'],
    queryFn: () => apiGet<SocialProvidersResponse>('/api/auth/oidc/providers'),
    staleTime: 10 * 60_000,
  });

/**
 * What a trip to LINE or Google came back with (`?social=…` on /login and /member), said once. The
 * page reads `social` only once hydrated (the server renders these pages without it).
 */
export function SocialProblemNotice({
  social,
  className = 'mb-5',
}: {
  social: string | null;
  className?: string;
}) {
  const parsed = SocialProblem.safeParse(social);
  if (!parsed.success) return null;
  const tone = parsed.data === 'linked' ? 'success' : parsed.data === 'cancelled' ? 'info' : 'error';
  return (
    <Alert tone={tone} className={className}>
      {SOCIAL_PROBLEMS[parsed.data]}
    </Alert>
  );
}

/** LINE's mark, drawn simply: a white speech bubble with the word in LINE green. */
export function LineMark({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 40 40" aria-hidden="true" className={className}>
      <path
        fill="#fff"
        d="M20 6C11.2 6 4 11.8 4 18.9c0 6.4 5.7 11.7 13.3 12.7.5.1 1.2.4 1.4.8.2.4.1 1 .1 1.4l-.2 1.4c-.1.4-.3 1.6 1.4.9 1.7-.7 9.2-5.4 12.6-9.3C34.9 24.3 36 21.7 36 18.9 36 11.8 28.8 6 20 6Z"
      />
      <text
        x="20"
        y="22.6"
        textAnchor="middle"
        fill="#06C755"
        fontFamily="Arial, Helvetica, sans-serif"
        fontWeight="700"
        fontSize="8.6"
      >
        LINE
      </text>
    </svg>
  );
}

/** A simple four-colour G: a ring in Google's colours, open at the upper right, with the bar. */
export function GoogleMark({ className }: { className?: string }) {
  return (
    <svg viewBox="0 0 48 48" aria-hidden="true" className={className}>
      <g fill="none" strokeWidth="7">
        <path stroke="#4285F4" d="M39 24a15 15 0 0 1-4.4 10.6" />
        <path stroke="#34A853" d="M34.6 34.6A15 15 0 0 1 11 31.5" />
        <path stroke="#FBBC05" d="M11 31.5a15 15 0 0 1 0-15" />
        <path stroke="#EA4335" d="M11 16.5a15 15 0 0 1 23.6-3.1" />
      </g>
      <path fill="#4285F4" d="M24 20.5h18.5v7H24z" />
    </svg>
  );
}

const LABELS: Record<SocialProviderId, string> = { line: '使用 LINE 登入', google: '使用 Google 登入' };

/**
 * One button per sign-in provider the shop offers, LINE after its button guideline (the mark, a
 * divider, white bold text) on a deeper green than its #06C755, which white text on it fails
 * (2.3:1; #00833A gives 4.9:1, as accessibility 100 needs) and Google per its branding (white, a grey outline, the G).
 * Each is a plain link: the trip to the provider is a full-page navigation that starts on the
 * server, with the page to come back to.
 */
export function SocialSignInButtons({
  returnTo,
  dividerLabel,
}: {
  returnTo?: string | null;
  /** The words on the line between the buttons and the e-mail form below them. */
  dividerLabel: string;
}) {
  const providers = useQuery(socialProvidersQueryOptions());
  const offered = providers.data?.providers;
  if (offered?.length === 0 || providers.isError) return null;
  return (
    <>
      {/* Room for two buttons is kept while the list loads, so the form below does not jump. */}
      <div className={cn('flex flex-col gap-3', !offered && 'min-h-[146px]')}>
        {offered?.map((provider) => (
          <a
            key={provider}
            href={socialStartPath(provider, { redirect: returnTo ?? undefined })}
            className={cn(
              'relative flex min-h-12 items-center justify-center overflow-hidden rounded-md text-base font-bold tracking-wide',
              provider === 'line'
                ? 'bg-[#00833A] text-white hover:bg-[#00732F] active:bg-[#006329]'
                : 'border border-[#747775] bg-white text-[#1F1F1F] hover:bg-[#f5f5f5] active:bg-[#ececec]',
            )}
          >
            <span
              className={cn(
                'absolute inset-y-0 left-0 flex w-12 items-center justify-center',
                provider === 'line' && 'border-r border-black/10',
              )}
            >
              {provider === 'line' ? <LineMark className="size-9" /> : <GoogleMark className="size-5" />}
            </span>
            <span className="px-14">{LABELS[provider]}</span>
          </a>
        ))}
        {offered && (
          <p className="text-center text-xs text-ink-muted">
            使用 LINE 或 Google 登入，即表示您同意
            <Link to={paths.serviceTerms()} className={textLinkClass}>
              服務條款
            </Link>
            與
            <Link to={paths.privacyPolicy()} className={textLinkClass}>
              隱私權政策
            </Link>
            。
          </p>
        )}
      </div>
      <OrDivider label={dividerLabel} />
    </>
  );
}

/** The line between the provider buttons and the e-mail form. */
function OrDivider({ label }: { label: string }) {
  return (
    <div className="my-6 flex items-center gap-3 text-sm text-ink-muted" role="separator">
      <span className="h-px flex-1 bg-line" />
      {label}
      <span className="h-px flex-1 bg-line" />
    </div>
  );
}
