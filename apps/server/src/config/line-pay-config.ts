/**
 * LINE Pay (Online API v3) settings from the environment: a channel's id and secret key and the API
 * host, all or nothing. Outside production a shop without them uses the built-in sandbox at
 * PUBLIC_URL/sandbox/linepay with stand-in credentials; production without them hides LINE Pay,
 * and refuses half of them, the stand-ins, or any host but LINE's own (docs/decisions/045).
 */

/** LINE Pay's hosts (developers-pay.line.me, "Endpoint"). */
export const LINE_PAY_HOSTS = {
  production: 'https://api-pay.line.me',
  sandbox: 'https://sandbox-api-pay.line.me',
} as const;

/** Where LINE Pay's payment pages are (info.paymentUrl.web), which the start redirect goes to. */
export const LINE_PAY_WEB_ORIGINS = ['https://web-pay.line.me', 'https://sandbox-web-pay.line.me'] as const;

/** Where the built-in sandbox answers, below PUBLIC_URL. */
export const LINE_PAY_SANDBOX_PATH = '/sandbox/linepay';

/** The built-in sandbox's stand-in channel: anyone may know it, so production refuses it. */
export const LINE_PAY_SANDBOX_CHANNEL = {
  channelId: '1000000045',
  channelSecret: '6c696e6570617973616e64626f783435',
} as const;

export interface LinePayConfig {
  readonly channelId: string;
  readonly channelSecret: string;
  /** Scheme and host (and for the built-in sandbox its path), without a trailing slash. */
  readonly apiBase: string;
  /** True: the API is the built-in sandbox (never in production). */
  readonly sandbox: boolean;
}

interface LinePayEnv {
  readonly LINE_PAY_CHANNEL_ID?: string | undefined;
  readonly LINE_PAY_CHANNEL_SECRET?: string | undefined;
  readonly LINE_PAY_API_BASE?: string | undefined;
  /** A production shop that knowingly takes only test payments (LINE's sandbox host allowed). */
  readonly ECPAY_STAGE: boolean;
}

/** The settings, or the problems that keep the shop from starting (one line each, naming the variable). */
export function resolveLinePay(
  env: LinePayEnv,
  isProduction: boolean,
  publicUrl: string,
): { config: LinePayConfig | undefined; problems: string[] } {
  const id = env.LINE_PAY_CHANNEL_ID;
  const secret = env.LINE_PAY_CHANNEL_SECRET;
  const base = env.LINE_PAY_API_BASE?.replace(/\/+$/, '');
  const inApp = `${publicUrl}${LINE_PAY_SANDBOX_PATH}`;
  const problems: string[] = [];
  if (id && !secret)
    problems.push('LINE_PAY_CHANNEL_SECRET: required when LINE_PAY_CHANNEL_ID is set (LINE Pay needs both)');
  if (!id && secret)
    problems.push('LINE_PAY_CHANNEL_ID: required when LINE_PAY_CHANNEL_SECRET is set (LINE Pay needs both)');
  if (base && !id && !secret)
    problems.push(
      'LINE_PAY_CHANNEL_ID: required when LINE_PAY_API_BASE is set (with LINE_PAY_CHANNEL_SECRET; leave all three unset to hide LINE Pay)',
    );
  if (isProduction) {
    if (id === LINE_PAY_SANDBOX_CHANNEL.channelId || secret === LINE_PAY_SANDBOX_CHANNEL.channelSecret)
      problems.push(
        `${id === LINE_PAY_SANDBOX_CHANNEL.channelId ? 'LINE_PAY_CHANNEL_ID' : 'LINE_PAY_CHANNEL_SECRET'}: is the built-in LINE Pay sandbox's stand-in; set your own channel from LINE Pay's merchant center, or leave LINE Pay unset to hide it`,
      );
    if (base && base !== LINE_PAY_HOSTS.production && base !== LINE_PAY_HOSTS.sandbox)
      problems.push(
        `LINE_PAY_API_BASE: must be ${LINE_PAY_HOSTS.production} when NODE_ENV=production (the built-in sandbox and other hosts take no money)`,
      );
    if (base === LINE_PAY_HOSTS.sandbox && !env.ECPAY_STAGE)
      problems.push(
        `LINE_PAY_API_BASE: is LINE Pay's sandbox (no money is ever taken there); use ${LINE_PAY_HOSTS.production}, or ECPAY_STAGE=true if this shop only ever takes test payments`,
      );
  }
  if (problems.length > 0) return { config: undefined, problems };
  if (id && secret) {
    const apiBase = base ?? (isProduction ? LINE_PAY_HOSTS.production : LINE_PAY_HOSTS.sandbox);
    return {
      config: { channelId: id, channelSecret: secret, apiBase, sandbox: apiBase === inApp },
      problems,
    };
  }
  if (isProduction) return { config: undefined, problems };
  return { config: { ...LINE_PAY_SANDBOX_CHANNEL, apiBase: inApp, sandbox: true }, problems };
}
