import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { BRAND } from '@shop/shared/brand';
import { LINE_PAY_HOSTS, resolveLinePay, type LinePayConfig } from './line-pay-config.ts';

/**
 * The server package's folder (apps/server): the nearest folder above this file with a
 * package.json. The sources run from apps/server/src/config, the build from apps/server/dist (one
 * flat bundle), so a fixed number of `..` would be right for only one of them.
 */
function serverPackageRoot(): string {
  for (let dir = path.dirname(fileURLToPath(import.meta.url)); ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no package.json above ${fileURLToPath(import.meta.url)}`);
  }
}

/** Repository root, so relative defaults do not depend on the working directory. */
export const REPO_ROOT = path.resolve(serverPackageRoot(), '../..');

const emptyToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

const optionalUrl = (protocols: readonly string[], example: string) =>
  z.preprocess(
    emptyToUndefined,
    z
      .string()
      .refine(
        (v) => {
          try {
            return protocols.includes(new URL(v).protocol);
          } catch {
            return false;
          }
        },
        `must be a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')} (e.g. ${example})`,
      )
      .optional(),
  );

const booleanFlag = z.preprocess(
  emptyToUndefined,
  z
    .enum(['1', '0', 'true', 'false', 'on', 'off'], { message: 'must be one of 1, 0, true, false, on, off' })
    .optional()
    .transform((v) => v === '1' || v === 'true' || v === 'on'),
);

/**
 * Which proxies may tell us the client's address (X-Forwarded-For): none, the number of proxy hops
 * in front of the server, or the proxies' own addresses and CIDR ranges.
 */
export type TrustProxy = false | number | readonly string[];

/** proxy-addr's names for whole ranges, accepted alongside addresses. */
const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);
/** A HOST that only this machine can reach. */
const LOOPBACK_HOSTS = /^(127(\.\d{1,3}){3}|::1|\[::1\]|localhost)$/;

function isProxyAddress(entry: string): boolean {
  if (NAMED_RANGES.has(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = net.isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

const trustProxy = z.preprocess(
  emptyToUndefined,
  z
    .string()
    .optional()
    .transform((raw, ctx): TrustProxy => {
      const value = raw?.trim().toLowerCase();
      if (value === undefined || value === '0' || value === 'false' || value === 'off') return false;
      if (/^\d+$/.test(value) && Number(value) <= 10) return Number(value);
      const entries = value.split(',').map((e) => e.trim());
      if (entries.every((e) => e !== '' && isProxyAddress(e))) return entries;
      ctx.addIssue({
        code: 'custom',
        message:
          value === 'true' || value === '*'
            ? 'must name the proxies (a hop count such as 1, or their addresses): trusting every sender lets anyone forge their address'
            : "must be the number of proxy hops (e.g. 1) or the proxies' addresses or CIDR ranges, comma-separated (e.g. 10.0.0.0/8,127.0.0.1)",
      });
      return z.NEVER;
    }),
);

/** A whole number of milliseconds within bounds. */
const milliseconds = (min: number, max: number, fallback: number) =>
  z.preprocess(
    emptyToUndefined,
    z.coerce
      .number({ message: 'must be a number of milliseconds' })
      .int('must be a whole number of milliseconds')
      .min(min, `must be between ${min} and ${max} milliseconds`)
      .max(max, `must be between ${min} and ${max} milliseconds`)
      .default(fallback),
  );

const EnvSchema = z.object({
  NODE_ENV: z.preprocess(
    emptyToUndefined,
    z
      .enum(['development', 'production', 'test'], { message: 'must be development, production or test' })
      .default('development'),
  ),
  PORT: z.preprocess(
    emptyToUndefined,
    z.coerce
      .number({ message: 'must be a port number' })
      .int('must be a whole number')
      .min(0, 'must be between 0 and 65535')
      .max(65535, 'must be between 0 and 65535')
      .default(3000),
  ),
  // Only this machine can reach the server unless HOST opens it (0.0.0.0 in a container, behind a proxy).
  HOST: z.preprocess(emptyToUndefined, z.string().default('127.0.0.1')),
  DATA_DIR: z.preprocess(emptyToUndefined, z.string().default('.data')),
  DATABASE_URL: optionalUrl(['postgres:', 'postgresql:'], 'postgres://postgres@127.0.0.1:5432/shop'),
  /** PostgreSQL: connecting, or waiting for a free pooled connection (docs/decisions/007-reliability.md). */
  DATABASE_CONNECT_TIMEOUT_MS: milliseconds(500, 60_000, 5_000),
  /** PostgreSQL: the longest a statement may run; the client waits 5 s more for an answer. */
  DATABASE_STATEMENT_TIMEOUT_MS: milliseconds(1_000, 600_000, 15_000),
  PUBLIC_URL: optionalUrl(['http:', 'https:'], 'https://shop.example.com'),
  TRUST_PROXY: trustProxy,
  LOG_LEVEL: z.preprocess(
    emptyToUndefined,
    z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ),
  /** Where the built SPA lives; the server serves it when present. */
  WEB_DIST: z.preprocess(emptyToUndefined, z.string().default('apps/web/dist')),
  /** Load the demo data into an empty database at start (never in production). */
  SEED_DEMO: booleanFlag,
  SMTP_URL: optionalUrl(['smtp:', 'smtps:'], 'smtp://user:pass@smtp.example.com:587'),
  MAIL_FROM: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .refine(
        (v) => /<[^<>\s@]+@[^<>\s@]+>$|^[^<>\s@]+@[^<>\s@]+$/.test(v.trim()),
        'must be an address, e.g. "山嵐茶事 <service@example.com>"',
      )
      .optional(),
  ),
  /** Where the shop's own notices go: new orders, the daily digest, contact messages (Reply-To: the sender). */
  SHOP_NOTIFY_EMAIL: z.preprocess(
    emptyToUndefined,
    z.email('must be the address the shop reads, e.g. service@example.com').optional(),
  ),
  /**
   * How long an outbox delivery may hold its message before another worker may take it again
   * (docs/decisions/014-outbox.md); longer than any delivery's own time-outs.
   */
  SESSION_CACHE_SECONDS: z.preprocess(
    emptyToUndefined,
    z.coerce
      .number()
      .int('must be whole seconds')
      .min(0, 'must be 0 (off) or more')
      .max(300, 'must be at most 300')
      .default(10),
  ),
  /** Signs the links in marketing mail that unsubscribe without signing in (HMAC-SHA256); at least 32 characters. */
  MAIL_LINK_SECRET: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .min(32, 'must be at least 32 random characters; make one with: openssl rand -base64 32')
      .optional(),
  ),
  OUTBOX_LEASE_SECONDS: z.preprocess(
    emptyToUndefined,
    z.coerce
      .number()
      .int('must be whole seconds')
      .min(2, 'must be at least 2')
      .max(3600, 'must be at most 3600')
      .default(120),
  ),
  REDIS_URL: optionalUrl(['redis:', 'rediss:'], 'redis://127.0.0.1:6379'),
  /** After SIGTERM: how long readiness answers 503 while the listener still accepts (lib/drain.ts); 5 s in production, else 0. */
  SHUTDOWN_GRACE_SECONDS: z.preprocess(
    emptyToUndefined,
    z.coerce
      .number()
      .int('must be whole seconds')
      .min(0, 'must be 0 (stop accepting at once) or more')
      .max(120, 'must be at most 120')
      .optional(),
  ),
  /** 32 random bytes (base64 or hex) that seal every backup with AES-256-GCM (modules/backup/encryption.ts). */
  BACKUP_ENCRYPTION_KEY: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .optional()
      .transform((raw, ctx): Buffer | undefined => {
        if (raw === undefined) return undefined;
        const value = raw.trim();
        const key = /^[0-9a-fA-F]{64}$/.test(value)
          ? Buffer.from(value, 'hex')
          : /^[A-Za-z0-9+/]{43}=?$/.test(value)
            ? Buffer.from(value, 'base64')
            : null;
        if (key?.length === 32) return key;
        ctx.addIssue({
          code: 'custom',
          message:
            'must be 32 random bytes written as base64 (44 characters) or hex (64 characters); make one with: openssl rand -base64 32',
        });
        return z.NEVER;
      }),
  ),
  /** At start, how long to wait for Redis before taking traffic without it (limits per instance until it answers). */
  REDIS_START_WAIT_SECONDS: z.preprocess(
    emptyToUndefined,
    z.coerce
      .number()
      .int('must be whole seconds')
      .min(0, 'must be 0 (do not wait) or more')
      .max(120, 'must be at most 120')
      .default(10),
  ),
  MAINTENANCE_MODE: booleanFlag,
  S3_ENDPOINT: optionalUrl(['http:', 'https:'], 'https://s3.ap-northeast-1.amazonaws.com'),
  S3_BUCKET: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be an S3 bucket name')
      .optional(),
  ),
  S3_REGION: z.preprocess(emptyToUndefined, z.string().default('us-east-1')),
  S3_ACCESS_KEY_ID: z.preprocess(emptyToUndefined, z.string().optional()),
  S3_SECRET_ACCESS_KEY: z.preprocess(emptyToUndefined, z.string().optional()),
  S3_FORCE_PATH_STYLE: booleanFlag,
  ECPAY_MERCHANT_ID: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^\d{7,10}$/, 'must be the numeric MerchantID ECPay gave you')
      .optional(),
  ),
  ECPAY_HASH_KEY: z.preprocess(
    emptyToUndefined,
    z.string().min(8, 'must be the HashKey ECPay gave you').optional(),
  ),
  ECPAY_HASH_IV: z.preprocess(
    emptyToUndefined,
    z.string().min(8, 'must be the HashIV ECPay gave you').optional(),
  ),
  ECPAY_ENDPOINT: optionalUrl(
    ['https:', 'http:'],
    'https://payment-stage.ecpay.com.tw/Cashier/AioCheckOut/V5',
  ),
  /** The card query's third secret (信用卡收單 → 信用卡授權資訊 in ECPay's back office): refunds ask ECPay where a payment stands with it. */
  ECPAY_CREDIT_CHECK_CODE: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^\d{6,10}$/, "must be the numeric CreditCheckCode from ECPay's back office")
      .optional(),
  ),
  /** Says out loud that a production shop takes only ECPay test payments (stage cashier, published keys). */
  ECPAY_STAGE: booleanFlag,
  // ECPay B2C e-invoices: its own merchant and AES key pair (docs/integrations/ecpay-einvoice.md).
  ECPAY_EINVOICE_ENDPOINT: optionalUrl(['https:', 'http:'], 'https://einvoice-stage.ecpay.com.tw'),
  ECPAY_EINVOICE_MERCHANT_ID: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^\d{7,10}$/, 'must be the numeric e-invoice MerchantID ECPay gave you')
      .optional(),
  ),
  ECPAY_EINVOICE_HASH_KEY: z.preprocess(
    emptyToUndefined,
    z.string().length(16, 'must be the 16-character e-invoice HashKey ECPay gave you').optional(),
  ),
  ECPAY_EINVOICE_HASH_IV: z.preprocess(
    emptyToUndefined,
    z.string().length(16, 'must be the 16-character e-invoice HashIV ECPay gave you').optional(),
  ),
  // ECPay logistics (物流整合): its own merchant and MD5 keys (docs/integrations/ecpay-logistics.md).
  ECPAY_LOGISTICS_MERCHANT_ID: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^\d{7,10}$/, 'must be the numeric logistics MerchantID ECPay gave you')
      .optional(),
  ),
  ECPAY_LOGISTICS_HASH_KEY: z.preprocess(
    emptyToUndefined,
    z.string().min(8, 'must be the logistics HashKey ECPay gave you').optional(),
  ),
  ECPAY_LOGISTICS_HASH_IV: z.preprocess(
    emptyToUndefined,
    z.string().min(8, 'must be the logistics HashIV ECPay gave you').optional(),
  ),
  /** The logistics host, e.g. https://logistics-stage.ecpay.com.tw; without it (outside production) the built-in sandbox. */
  ECPAY_LOGISTICS_ENDPOINT: optionalUrl(['https:', 'http:'], 'https://logistics.ecpay.com.tw'),
  ECPAY_LOGISTICS_TYPE: z.preprocess(
    emptyToUndefined,
    z
      .enum(['B2C', 'C2C'], {
        message: 'must be B2C (大宗寄倉) or C2C (店到店), as in your ECPay logistics contract',
      })
      .default('C2C'),
  ),
  /** Make the logistics order as soon as an order is paid (or placed, for cash on delivery), not when staff ship. */
  ECPAY_LOGISTICS_AUTO_CREATE: booleanFlag,
  // Printed on labels and sent with each shipment. ECPay: at most 10 characters (5 Chinese),
  // none of ^ ' ` ! @ # % & * + \ " < > | _ [ ]; a mobile number 09 and 8 digits.
  ECPAY_LOGISTICS_SENDER_NAME: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .refine(
        validSenderName,
        'must be at most 10 characters (5 Chinese), without ^ \' ` ! @ # % & * + \\ " < > | _ [ ]',
      )
      .optional(),
  ),
  ECPAY_LOGISTICS_SENDER_PHONE: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^09\d{8}$/, 'must be a mobile number: 09 and 8 digits')
      .optional(),
  ),
  ECPAY_LOGISTICS_SENDER_ZIP: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^\d{3}(\d{2,3})?$/, 'must be a postal code of 3, 5 or 6 digits')
      .optional(),
  ),
  ECPAY_LOGISTICS_SENDER_ADDRESS: z.preprocess(
    emptyToUndefined,
    z.string().min(6, 'must be the full return address').max(60, 'must be at most 60 characters').optional(),
  ),
  // Sign-in through LINE Login and Google (OpenID Connect; docs/decisions/040-social-sign-in.md).
  LINE_LOGIN_CHANNEL_ID: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^\d{10}$/, 'must be the 10-digit Channel ID of your LINE Login channel')
      .optional(),
  ),
  LINE_LOGIN_CHANNEL_SECRET: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^[0-9a-f]{32}$/, 'must be the 32-character Channel secret of your LINE Login channel')
      .optional(),
  ),
  // LINE Pay Online API v3 (docs/decisions/045-line-pay.md): all three or none.
  LINE_PAY_CHANNEL_ID: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^\d{10}$/, "must be the 10-digit Channel ID from LINE Pay's merchant center")
      .optional(),
  ),
  LINE_PAY_CHANNEL_SECRET: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(
        /^[0-9a-fA-F]{32}$/,
        "must be the 32-character Channel Secret Key from LINE Pay's merchant center",
      )
      .optional(),
  ),
  LINE_PAY_API_BASE: optionalUrl(['https:', 'http:'], LINE_PAY_HOSTS.production),
  GOOGLE_CLIENT_ID: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(
        /^[\w.-]+\.apps\.googleusercontent\.com$/,
        'must be an OAuth client ID from Google Cloud, ending in .apps.googleusercontent.com',
      )
      .optional(),
  ),
  GOOGLE_CLIENT_SECRET: z.preprocess(
    emptyToUndefined,
    z.string().min(10, 'must be the client secret Google Cloud gave with the client ID').max(200).optional(),
  ),
});

/** ECPay's sender-name rule: at most 10 characters, a Chinese character counting as two, none of its forbidden characters. */
function validSenderName(name: string): boolean {
  if (/[\^'`!@#%&*+\\"<>|_[\]]/.test(name)) return false;
  let width = 0;
  for (const char of name) width += /[\x20-\x7e]/.test(char) ? 1 : 2;
  return width >= 2 && width <= 10;
}

/**
 * ECPay's published test merchants and their key pairs (developers.ecpay.com.tw, "測試介接資訊"
 * of the AIO, platform, logistics and e-invoice APIs). Anyone can sign a payment notice with them,
 * so a real shop must never accept them.
 */
const ECPAY_PUBLISHED_MERCHANTS = new Set(['3002607', '3002599', '2000132', '2000933']);
const ECPAY_PUBLISHED_KEYS = new Set([
  'pwFHCqoQZGmho4w6',
  'spPjZn66i0OhqJsQ',
  '5294y06JbISpM5x9',
  'ejCk326UnaZWKisg',
  'XBERn1YOvpM9nfZc',
]);
const ECPAY_PUBLISHED_IVS = new Set([
  'EkRm7iFT261dpevs',
  'hT5OJckN45isQTTs',
  'v77hoKGq4kWxNNIS',
  'q9jcZX8Ib9LM8wYk',
  'h1ONHk4P4yqbl5LK',
]);

/**
 * The stand-in credentials of the built-in sign-in sandboxes (outside production only). Like
 * ECPay's published test keys, anyone may know them, so production refuses them.
 */
export const SOCIAL_SANDBOX_CLIENTS = {
  line: { clientId: '1000000000', clientSecret: '5a6e6462786c696e65736563726574aa' },
  google: { clientId: 'sandbox.apps.googleusercontent.com', clientSecret: 'sandbox-google-client-secret' },
} as const;

export type SocialProviderId = keyof typeof SOCIAL_SANDBOX_CLIENTS;

/** One sign-in provider's client: real credentials, or the built-in sandbox's (never in production). */
export interface SocialClientConfig {
  readonly clientId: string;
  readonly clientSecret: string;
  /** True: the provider is the built-in sandbox at PUBLIC_URL/dev/oidc/<provider>. */
  readonly sandbox: boolean;
}

export type Env = z.infer<typeof EnvSchema>;

export interface AppConfig {
  readonly nodeEnv: Env['NODE_ENV'];
  readonly isProduction: boolean;
  readonly isTest: boolean;
  readonly port: number;
  readonly host: string;
  readonly dataDir: string;
  readonly databaseUrl: string | undefined;
  /** PostgreSQL time-outs; the rest of them follow from these (db/client.ts). */
  readonly databaseTimeouts: { readonly connectMs: number; readonly statementMs: number };
  readonly publicUrl: string;
  readonly logLevel: Env['LOG_LEVEL'];
  /** Proxies whose X-Forwarded-For is believed; false (the default) believes nobody's. */
  readonly trustProxy: TrustProxy;
  readonly webDist: string;
  readonly seedDemo: boolean;
  /** Real SMTP server; without it (outside production) mail goes to the outbox table. */
  readonly smtpUrl: string | undefined;
  readonly mailFrom: string;
  /** The shop's own inbox for notices (new orders, digest, contact messages). */
  readonly shopNotifyEmail: string;
  readonly outboxLeaseMs: number;
  /** The key of the signed unsubscribe links in marketing mail (a fixed stand-in outside production). */
  readonly mailLinkSecret: string;
  /** How long a signed-in lookup is kept in memory (0: every request asks the database). */
  readonly sessionCacheMs: number;
  /** After SIGTERM, how long the listener keeps accepting while readiness answers 503. */
  readonly shutdownGraceMs: number;
  /** Seals backups (AES-256-GCM) and opens sealed ones; without it backups are plain tar files. */
  readonly backupEncryptionKey: Buffer | undefined;
  /** Shared rate-limit counters (and later realtime fan-out) across instances. */
  readonly redisUrl: string | undefined;
  readonly redisStartWaitMs: number;
  /** Forces maintenance mode on, whatever the database flag says. */
  readonly maintenanceMode: boolean;
  /** S3-compatible storage; without it files live under DATA_DIR/storage. */
  /**
   * ECPay AIO settings. Defaults are ECPay's published stage test merchant; without an endpoint
   * (outside production) payments go to the built-in sandbox gateway.
   */
  readonly ecpay: {
    merchantId: string;
    hashKey: string;
    hashIV: string;
    endpoint: string | undefined;
    /** ECPAY_STAGE: a production shop that knowingly runs on ECPay's test environment. */
    stage: boolean;
    /** For the card trade query a refund makes first. */
    creditCheckCode: string;
  };
  /**
   * ECPay logistics settings. Defaults are ECPay's published stage merchant for the chosen type
   * (C2C 2000933, B2C 2000132); without an endpoint (outside production) store maps and shipments go
   * to the built-in sandbox.
   */
  readonly logistics: {
    merchantId: string;
    hashKey: string;
    hashIV: string;
    endpoint: string | undefined;
    type: 'B2C' | 'C2C';
    /** ECPAY_LOGISTICS_AUTO_CREATE: the logistics order is made at payment, ready when staff ship. */
    autoCreate: boolean;
    sender: { name: string; phone: string; zip: string; address: string };
  };
  /**
   * ECPay B2C e-invoices: the host (ECPay's, or undefined for the built-in sandbox at
   * PUBLIC_URL/sandbox/ecpay/einvoice) and the merchant's AES key pair.
   */
  readonly einvoice: { merchantId: string; hashKey: string; hashIV: string; endpoint: string | undefined };
  /**
   * Sign-in providers shown on the sign-in pages. Undefined: not offered (production without its
   * credentials). Outside production a provider without credentials is the built-in sandbox.
   */
  readonly socialSignIn: { readonly [P in SocialProviderId]: SocialClientConfig | undefined };
  /**
   * LINE Pay: undefined hides it at checkout (production without its credentials). Outside
   * production a shop without credentials uses the built-in sandbox.
   */
  readonly linePay: LinePayConfig | undefined;
  readonly s3:
    | {
        endpoint: string;
        bucket: string;
        region: string;
        accessKeyId: string;
        secretAccessKey: string;
        forcePathStyle: boolean;
      }
    | undefined;
}

const SOCIAL_KEYS = {
  line: { id: 'LINE_LOGIN_CHANNEL_ID', secret: 'LINE_LOGIN_CHANNEL_SECRET' },
  google: { id: 'GOOGLE_CLIENT_ID', secret: 'GOOGLE_CLIENT_SECRET' },
} as const satisfies Record<SocialProviderId, { id: keyof Env; secret: keyof Env }>;

export class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(problems.join('\n'));
    this.name = 'ConfigError';
  }
}

/**
 * Parses the environment once. Every bad or missing key is listed, one line each, naming the
 * variable; production refuses to start without the settings that replace the stand-ins.
 */
const SECRET_KEYS = new Set([
  'BACKUP_ENCRYPTION_KEY',
  'MAIL_LINK_SECRET',
  'LINE_LOGIN_CHANNEL_SECRET',
  'GOOGLE_CLIENT_SECRET',
  'LINE_PAY_CHANNEL_SECRET',
]);

export function loadConfig(source: Record<string, string | undefined>): AppConfig {
  const parsed = EnvSchema.safeParse(source);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      const key = issue.path.join('.') || '(environment)';
      // A secret's value is never echoed into a log: only its length.
      const got = SECRET_KEYS.has(key)
        ? `${source[key]?.length ?? 0} characters`
        : JSON.stringify(source[key] ?? null);
      return `${key}: ${issue.message} (got ${got})`;
    });
    throw new ConfigError(problems);
  }
  const env = parsed.data;
  const isProduction = env.NODE_ENV === 'production';
  if (isProduction) {
    const missing: string[] = [];
    if (!env.DATABASE_URL)
      missing.push(
        'DATABASE_URL: required when NODE_ENV=production (the embedded database is for trying the shop only)',
      );
    if (!env.PUBLIC_URL)
      missing.push(
        'PUBLIC_URL: required when NODE_ENV=production (links in mails and payment callbacks use it)',
      );
    if (env.SEED_DEMO) missing.push('SEED_DEMO: demo data is never loaded when NODE_ENV=production');
    if (!env.SMTP_URL)
      missing.push('SMTP_URL: required when NODE_ENV=production (there is no dev mailbox in production)');
    if (!env.MAIL_LINK_SECRET)
      missing.push(
        'MAIL_LINK_SECRET: required when NODE_ENV=production (it signs the unsubscribe links in marketing mail)',
      );
    if (!env.SHOP_NOTIFY_EMAIL)
      missing.push(
        'SHOP_NOTIFY_EMAIL: required when NODE_ENV=production (new orders and contact messages are sent there)',
      );
    for (const key of [
      'ECPAY_ENDPOINT',
      'ECPAY_MERCHANT_ID',
      'ECPAY_HASH_KEY',
      'ECPAY_HASH_IV',
      'ECPAY_CREDIT_CHECK_CODE',
    ] as const) {
      if (!env[key])
        missing.push(
          `${key}: required when NODE_ENV=production (the sandbox payment gateway and the test merchant are for trying the shop only)`,
        );
    }
    for (const key of [
      'ECPAY_LOGISTICS_ENDPOINT',
      'ECPAY_LOGISTICS_MERCHANT_ID',
      'ECPAY_LOGISTICS_HASH_KEY',
      'ECPAY_LOGISTICS_HASH_IV',
    ] as const) {
      if (!env[key])
        missing.push(
          `${key}: required when NODE_ENV=production (the sandbox store map and its invented stores are for trying the shop only)`,
        );
    }
    for (const key of [
      'ECPAY_LOGISTICS_SENDER_NAME',
      'ECPAY_LOGISTICS_SENDER_PHONE',
      'ECPAY_LOGISTICS_SENDER_ZIP',
      'ECPAY_LOGISTICS_SENDER_ADDRESS',
    ] as const) {
      if (!env[key])
        missing.push(
          `${key}: required when NODE_ENV=production (every shipment carries the sender, and returns come back to this address)`,
        );
    }
    for (const key of [
      'ECPAY_EINVOICE_ENDPOINT',
      'ECPAY_EINVOICE_MERCHANT_ID',
      'ECPAY_EINVOICE_HASH_KEY',
      'ECPAY_EINVOICE_HASH_IV',
    ] as const) {
      if (!env[key])
        missing.push(
          `${key}: required when NODE_ENV=production (every sale needs a real uniform e-invoice; the sandbox issues none)`,
        );
    }
    if (!env.ECPAY_STAGE) {
      const testShop = 'set your own, or ECPAY_STAGE=true if this shop only ever takes test payments';
      if (env.ECPAY_ENDPOINT && new URL(env.ECPAY_ENDPOINT).hostname.endsWith('-stage.ecpay.com.tw')) {
        missing.push(
          `ECPAY_ENDPOINT: is ECPay's test cashier (no money is ever taken there); use the production one, or ECPAY_STAGE=true if this shop only ever takes test payments`,
        );
      }
      if (env.ECPAY_MERCHANT_ID && ECPAY_PUBLISHED_MERCHANTS.has(env.ECPAY_MERCHANT_ID))
        missing.push(`ECPAY_MERCHANT_ID: is one of ECPay's published test merchants; ${testShop}`);
      if (env.ECPAY_HASH_KEY && ECPAY_PUBLISHED_KEYS.has(env.ECPAY_HASH_KEY))
        missing.push(
          `ECPAY_HASH_KEY: is a published test key that anyone can sign payment notices with; ${testShop}`,
        );
      if (env.ECPAY_HASH_IV && ECPAY_PUBLISHED_IVS.has(env.ECPAY_HASH_IV))
        missing.push(
          `ECPAY_HASH_IV: is a published test key that anyone can sign payment notices with; ${testShop}`,
        );
      if (
        env.ECPAY_EINVOICE_ENDPOINT &&
        new URL(env.ECPAY_EINVOICE_ENDPOINT).hostname.endsWith('-stage.ecpay.com.tw')
      ) {
        missing.push(
          `ECPAY_EINVOICE_ENDPOINT: is ECPay's test e-invoice host (no invoice issued there counts); use the production one, or ECPAY_STAGE=true if this shop only ever takes test payments`,
        );
      }
      if (env.ECPAY_EINVOICE_MERCHANT_ID && ECPAY_PUBLISHED_MERCHANTS.has(env.ECPAY_EINVOICE_MERCHANT_ID))
        missing.push(`ECPAY_EINVOICE_MERCHANT_ID: is one of ECPay's published test merchants; ${testShop}`);
      if (env.ECPAY_EINVOICE_HASH_KEY && ECPAY_PUBLISHED_KEYS.has(env.ECPAY_EINVOICE_HASH_KEY))
        missing.push(`ECPAY_EINVOICE_HASH_KEY: is a published test key; ${testShop}`);
      if (env.ECPAY_EINVOICE_HASH_IV && ECPAY_PUBLISHED_IVS.has(env.ECPAY_EINVOICE_HASH_IV))
        missing.push(`ECPAY_EINVOICE_HASH_IV: is a published test key; ${testShop}`);
      if (
        env.ECPAY_LOGISTICS_ENDPOINT &&
        new URL(env.ECPAY_LOGISTICS_ENDPOINT).hostname.endsWith('-stage.ecpay.com.tw')
      ) {
        missing.push(
          `ECPAY_LOGISTICS_ENDPOINT: is ECPay's test logistics host (no parcel ever moves there); use the production one, or ECPAY_STAGE=true if this shop only ever ships test parcels`,
        );
      }
      if (env.ECPAY_LOGISTICS_MERCHANT_ID && ECPAY_PUBLISHED_MERCHANTS.has(env.ECPAY_LOGISTICS_MERCHANT_ID))
        missing.push(`ECPAY_LOGISTICS_MERCHANT_ID: is one of ECPay's published test merchants; ${testShop}`);
      if (env.ECPAY_LOGISTICS_HASH_KEY && ECPAY_PUBLISHED_KEYS.has(env.ECPAY_LOGISTICS_HASH_KEY))
        missing.push(
          `ECPAY_LOGISTICS_HASH_KEY: is a published test key that anyone can sign shipment notices with; ${testShop}`,
        );
      if (env.ECPAY_LOGISTICS_HASH_IV && ECPAY_PUBLISHED_IVS.has(env.ECPAY_LOGISTICS_HASH_IV))
        missing.push(
          `ECPAY_LOGISTICS_HASH_IV: is a published test key that anyone can sign shipment notices with; ${testShop}`,
        );
    }
    for (const [provider, { clientId, clientSecret }] of Object.entries(SOCIAL_SANDBOX_CLIENTS)) {
      const keys = SOCIAL_KEYS[provider as SocialProviderId];
      if (env[keys.id] === clientId || env[keys.secret] === clientSecret)
        missing.push(
          `${env[keys.id] === clientId ? keys.id : keys.secret}: is the built-in sign-in sandbox's stand-in, which signs anyone in as anyone; set your own ${provider === 'line' ? 'LINE Login channel' : 'Google OAuth client'}, or leave both unset to hide the button`,
        );
    }
    if (missing.length > 0) throw new ConfigError(missing);
  }
  // The test mode opens doors no shop may have (signing in as anyone): this machine only.
  if (env.NODE_ENV === 'test' && !LOOPBACK_HOSTS.test(env.HOST)) {
    throw new ConfigError([
      `HOST: NODE_ENV=test opens test-only doors (signing in as anyone) and listens on this machine only (127.0.0.1, ::1 or localhost), not ${env.HOST}`,
    ]);
  }
  // A provider is configured with both its id and its secret, or not at all (any NODE_ENV).
  const halfSocial = Object.values(SOCIAL_KEYS).flatMap(({ id, secret }) =>
    env[id] && !env[secret]
      ? [`${secret}: required when ${id} is set (a sign-in provider needs both)`]
      : !env[id] && env[secret]
        ? [`${id}: required when ${secret} is set (a sign-in provider needs both)`]
        : [],
  );
  if (halfSocial.length > 0) throw new ConfigError(halfSocial);
  const socialClient = (provider: SocialProviderId): SocialClientConfig | undefined => {
    const { id, secret } = SOCIAL_KEYS[provider];
    const clientId = env[id];
    const clientSecret = env[secret];
    if (clientId && clientSecret) return { clientId, clientSecret, sandbox: false };
    return isProduction ? undefined : { ...SOCIAL_SANDBOX_CLIENTS[provider], sandbox: true };
  };
  const s3Keys = ['S3_ENDPOINT', 'S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const;
  const s3Given = s3Keys.filter((k) => env[k] !== undefined);
  if (s3Given.length > 0 && s3Given.length < s3Keys.length) {
    throw new ConfigError(
      s3Keys
        .filter((k) => env[k] === undefined)
        .map(
          (k) =>
            `${k}: required when ${s3Given.join(', ')} ${s3Given.length > 1 ? 'are' : 'is'} set (S3 storage needs all four)`,
        ),
    );
  }
  const resolve = (p: string) => (path.isAbsolute(p) ? p : path.resolve(REPO_ROOT, p));
  const publicUrl = (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, '');
  const linePay = resolveLinePay(env, isProduction, publicUrl);
  if (linePay.problems.length > 0) throw new ConfigError(linePay.problems);
  return {
    nodeEnv: env.NODE_ENV,
    isProduction,
    isTest: env.NODE_ENV === 'test',
    port: env.PORT,
    host: env.HOST,
    dataDir: resolve(env.DATA_DIR),
    databaseUrl: env.DATABASE_URL,
    databaseTimeouts: {
      connectMs: env.DATABASE_CONNECT_TIMEOUT_MS,
      statementMs: env.DATABASE_STATEMENT_TIMEOUT_MS,
    },
    publicUrl,
    logLevel: env.LOG_LEVEL,
    trustProxy: env.TRUST_PROXY,
    webDist: resolve(env.WEB_DIST),
    // Demo data loads by default outside production; SEED_DEMO=0 turns it off.
    seedDemo:
      !isProduction && (source.SEED_DEMO === undefined || source.SEED_DEMO === '' ? true : env.SEED_DEMO),
    smtpUrl: env.SMTP_URL,
    mailFrom: env.MAIL_FROM ?? '山嵐茶事 <no-reply@shanlan-tea.example>',
    // Outside production: the brand's own service address (the demo reads it at /dev/mailbox).
    shopNotifyEmail: env.SHOP_NOTIFY_EMAIL ?? BRAND.email,
    outboxLeaseMs: env.OUTBOX_LEASE_SECONDS * 1000,
    mailLinkSecret: env.MAIL_LINK_SECRET ?? 'shanlan-dev-mail-link-secret-never-for-production',
    sessionCacheMs: env.SESSION_CACHE_SECONDS * 1000,
    backupEncryptionKey: env.BACKUP_ENCRYPTION_KEY,
    // Outside production nothing balances the load, and a restart (tsx watch, the benches) should not wait.
    shutdownGraceMs: (env.SHUTDOWN_GRACE_SECONDS ?? (isProduction ? 5 : 0)) * 1000,
    redisUrl: env.REDIS_URL,
    redisStartWaitMs: env.REDIS_START_WAIT_SECONDS * 1000,
    maintenanceMode: env.MAINTENANCE_MODE,
    ecpay: {
      merchantId: env.ECPAY_MERCHANT_ID ?? '3002607',
      hashKey: env.ECPAY_HASH_KEY ?? 'pwFHCqoQZGmho4w6',
      hashIV: env.ECPAY_HASH_IV ?? 'EkRm7iFT261dpevs',
      endpoint: env.ECPAY_ENDPOINT,
      stage: env.ECPAY_STAGE,
      // Any digits do for the sandbox, which checks it like ECPay; production needs the real one.
      creditCheckCode: env.ECPAY_CREDIT_CHECK_CODE ?? '25012345',
    },
    logistics: {
      merchantId:
        env.ECPAY_LOGISTICS_MERCHANT_ID ?? (env.ECPAY_LOGISTICS_TYPE === 'B2C' ? '2000132' : '2000933'),
      hashKey:
        env.ECPAY_LOGISTICS_HASH_KEY ??
        (env.ECPAY_LOGISTICS_TYPE === 'B2C' ? '5294y06JbISpM5x9' : 'XBERn1YOvpM9nfZc'),
      hashIV:
        env.ECPAY_LOGISTICS_HASH_IV ??
        (env.ECPAY_LOGISTICS_TYPE === 'B2C' ? 'v77hoKGq4kWxNNIS' : 'h1ONHk4P4yqbl5LK'),
      endpoint: env.ECPAY_LOGISTICS_ENDPOINT?.replace(/\/+$/, ''),
      type: env.ECPAY_LOGISTICS_TYPE,
      autoCreate: env.ECPAY_LOGISTICS_AUTO_CREATE,
      sender: {
        name: env.ECPAY_LOGISTICS_SENDER_NAME ?? '山嵐茶事',
        phone: env.ECPAY_LOGISTICS_SENDER_PHONE ?? '0912345678',
        zip: env.ECPAY_LOGISTICS_SENDER_ZIP ?? '558',
        address: env.ECPAY_LOGISTICS_SENDER_ADDRESS ?? '南投縣鹿谷鄉中正路一段 1 號',
      },
    },
    einvoice: {
      endpoint: env.ECPAY_EINVOICE_ENDPOINT?.replace(/\/+$/, ''),
      // ECPay's published stage e-invoice merchant: outside production only (refused there below).
      merchantId: env.ECPAY_EINVOICE_MERCHANT_ID ?? '2000132',
      hashKey: env.ECPAY_EINVOICE_HASH_KEY ?? 'ejCk326UnaZWKisg',
      hashIV: env.ECPAY_EINVOICE_HASH_IV ?? 'q9jcZX8Ib9LM8wYk',
    },
    socialSignIn: { line: socialClient('line'), google: socialClient('google') },
    linePay: linePay.config,
    s3:
      env.S3_ENDPOINT && env.S3_BUCKET && env.S3_ACCESS_KEY_ID && env.S3_SECRET_ACCESS_KEY
        ? {
            endpoint: env.S3_ENDPOINT,
            bucket: env.S3_BUCKET,
            region: env.S3_REGION,
            accessKeyId: env.S3_ACCESS_KEY_ID,
            secretAccessKey: env.S3_SECRET_ACCESS_KEY,
            forcePathStyle: env.S3_FORCE_PATH_STYLE,
          }
        : undefined,
  };
}
