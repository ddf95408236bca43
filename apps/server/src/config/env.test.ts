import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './env.ts';

function problems(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return [...error.problems];
    throw error;
  }
  return [];
}

/** Every setting production requires, with values that are not stand-ins. */
const PRODUCTION = {
  DATABASE_URL: 'postgres://postgres@db/shop',
  PUBLIC_URL: 'https://shop.example',
  SMTP_URL: 'smtp://mail.example:587',
  MAIL_LINK_SECRET: 'a-real-secret-of-at-least-32-characters',
  SHOP_NOTIFY_EMAIL: 'service@shop.example',
  ECPAY_ENDPOINT: 'https://payment.ecpay.com.tw/Cashier/AioCheckOut/V5',
  ECPAY_MERCHANT_ID: '1234567',
  ECPAY_HASH_KEY: 'realhashkey1',
  ECPAY_HASH_IV: 'realhashiv12',
  ECPAY_CREDIT_CHECK_CODE: '31415926',
  ECPAY_LOGISTICS_ENDPOINT: 'https://logistics.ecpay.com.tw',
  ECPAY_LOGISTICS_MERCHANT_ID: '7654321',
  ECPAY_LOGISTICS_HASH_KEY: 'reallogistickey1',
  ECPAY_LOGISTICS_HASH_IV: 'reallogisticiv12',
  ECPAY_LOGISTICS_SENDER_NAME: '山嵐茶事',
  ECPAY_LOGISTICS_SENDER_PHONE: '0912345678',
  ECPAY_LOGISTICS_SENDER_ZIP: '558',
  ECPAY_LOGISTICS_SENDER_ADDRESS: '南投縣鹿谷鄉中正路一段 1 號',
  ECPAY_EINVOICE_ENDPOINT: 'https://einvoice.ecpay.com.tw',
  ECPAY_EINVOICE_MERCHANT_ID: '7654322',
  ECPAY_EINVOICE_HASH_KEY: 'realinvoicekey16',
  ECPAY_EINVOICE_HASH_IV: 'realinvoiceiv016',
};

describe('configuration', () => {
  it('starts with sensible defaults in development', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.isProduction).toBe(false);
    expect(config.databaseUrl).toBeUndefined();
    expect(config.publicUrl).toBe('http://localhost:3000');
    expect(config.seedDemo).toBe(true);
    expect(config.dataDir.endsWith('.data')).toBe(true);
  });

  it('names each bad variable in its own line', () => {
    const lines = problems({ PORT: 'abc', DATABASE_URL: 'mysql://x', NODE_ENV: 'staging' });
    expect(lines).toHaveLength(3);
    expect(lines.find((l) => l.startsWith('PORT:'))).toContain('"abc"');
    expect(lines.find((l) => l.startsWith('DATABASE_URL:'))).toContain('postgres://');
    expect(lines.find((l) => l.startsWith('NODE_ENV:'))).toBeTruthy();
  });

  it('refuses a port out of range', () => {
    expect(problems({ PORT: '70000' })[0]).toMatch(/^PORT: /);
  });

  it('refuses production without the real settings, naming what is missing', () => {
    const lines = problems({ NODE_ENV: 'production' });
    expect(lines.map((l) => l.split(':')[0])).toEqual([
      'DATABASE_URL',
      'PUBLIC_URL',
      'SMTP_URL',
      'MAIL_LINK_SECRET',
      'SHOP_NOTIFY_EMAIL',
      'ECPAY_ENDPOINT',
      'ECPAY_MERCHANT_ID',
      'ECPAY_HASH_KEY',
      'ECPAY_HASH_IV',
      'ECPAY_CREDIT_CHECK_CODE',
      'ECPAY_LOGISTICS_ENDPOINT',
      'ECPAY_LOGISTICS_MERCHANT_ID',
      'ECPAY_LOGISTICS_HASH_KEY',
      'ECPAY_LOGISTICS_HASH_IV',
      'ECPAY_LOGISTICS_SENDER_NAME',
      'ECPAY_LOGISTICS_SENDER_PHONE',
      'ECPAY_LOGISTICS_SENDER_ZIP',
      'ECPAY_LOGISTICS_SENDER_ADDRESS',
      'ECPAY_EINVOICE_ENDPOINT',
      'ECPAY_EINVOICE_MERCHANT_ID',
      'ECPAY_EINVOICE_HASH_KEY',
      'ECPAY_EINVOICE_HASH_IV',
    ]);
  });

  it('never loads demo data in production', () => {
    const prod = { NODE_ENV: 'production', ...PRODUCTION };
    expect(loadConfig(prod).seedDemo).toBe(false);
    expect(problems({ ...prod, SEED_DEMO: '1' })[0]).toMatch(/^SEED_DEMO/);
  });

  it('checks the mail and Redis settings', () => {
    expect(problems({ SMTP_URL: 'http://mail' })[0]).toMatch(/^SMTP_URL: /);
    expect(problems({ REDIS_URL: 'localhost:6379' })[0]).toMatch(/^REDIS_URL: /);
    expect(problems({ REDIS_START_WAIT_SECONDS: '2.5' })[0]).toMatch(
      /^REDIS_START_WAIT_SECONDS: must be whole seconds/,
    );
    expect(problems({ REDIS_START_WAIT_SECONDS: '-1' })[0]).toMatch(/^REDIS_START_WAIT_SECONDS: must be 0/);
    expect(loadConfig({}).redisStartWaitMs).toBe(10_000);
    expect(loadConfig({ REDIS_START_WAIT_SECONDS: '0' }).redisStartWaitMs).toBe(0);
    expect(problems({ MAIL_FROM: 'not an address' })[0]).toMatch(/^MAIL_FROM: /);
    expect(loadConfig({ MAIL_FROM: '山嵐茶事 <service@shanlan.example>' }).mailFrom).toBe(
      '山嵐茶事 <service@shanlan.example>',
    );
  });

  it('trusts no proxy unless TRUST_PROXY names them by hop count or address, and refuses to trust everyone', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production', ...PRODUCTION }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1,::1, loopback' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
      '::1',
      'loopback',
    ]);
    for (const bad of ['true', '*', '10.0.0.0/33', 'proxy.example.com', '1.2.3', '-1']) {
      const lines = problems({ TRUST_PROXY: bad });
      expect(lines, bad).toHaveLength(1);
      expect(lines[0]).toMatch(/^TRUST_PROXY: /);
    }
  });

  it('refuses the test mode on any HOST but this machine', () => {
    for (const host of ['0.0.0.0', '192.0.2.7', '::', 'shop.example']) {
      expect(problems({ NODE_ENV: 'test', HOST: host })[0], host).toMatch(
        /^HOST: NODE_ENV=test opens test-only doors/,
      );
    }
    for (const host of ['127.0.0.1', '::1', 'localhost'])
      expect(loadConfig({ NODE_ENV: 'test', HOST: host }).host).toBe(host);
    expect(loadConfig({ NODE_ENV: 'development', HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
  });

  it('listens on the machine itself unless HOST says otherwise', () => {
    expect(loadConfig({}).host).toBe('127.0.0.1');
    expect(loadConfig({ NODE_ENV: 'production', ...PRODUCTION }).host).toBe('127.0.0.1');
    expect(loadConfig({ HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
  });

  it("refuses ECPay's published stage merchants and keys in production unless ECPAY_STAGE says this is a test shop", () => {
    const stage = [
      { ECPAY_MERCHANT_ID: '3002607', ECPAY_HASH_KEY: 'pwFHCqoQZGmho4w6', ECPAY_HASH_IV: 'EkRm7iFT261dpevs' },
      { ECPAY_MERCHANT_ID: '2000132', ECPAY_HASH_KEY: '5294y06JbISpM5x9', ECPAY_HASH_IV: 'v77hoKGq4kWxNNIS' },
      { ECPAY_MERCHANT_ID: '3002599', ECPAY_HASH_KEY: 'spPjZn66i0OhqJsQ', ECPAY_HASH_IV: 'hT5OJckN45isQTTs' },
      // A real merchant ID with a published key pair is no better.
      { ECPAY_MERCHANT_ID: '1234567', ECPAY_HASH_KEY: 'pwFHCqoQZGmho4w6', ECPAY_HASH_IV: 'EkRm7iFT261dpevs' },
      // Nor is the stage cashier with any merchant.
      { ECPAY_ENDPOINT: 'https://payment-stage.ecpay.com.tw/Cashier/AioCheckOut/V5' },
    ];
    for (const settings of stage) {
      const lines = problems({ NODE_ENV: 'production', ...PRODUCTION, ...settings });
      expect(lines.length, JSON.stringify(settings)).toBeGreaterThan(0);
      expect(
        lines.every((l) => /^ECPAY_/.test(l)),
        lines.join('\n'),
      ).toBe(true);
      expect(lines.join('\n')).toContain('ECPAY_STAGE');
      expect(lines.join('\n')).not.toContain(settings.ECPAY_HASH_KEY ?? '(no key)');
      // Said out loud, a test shop may run on them.
      expect(
        loadConfig({ NODE_ENV: 'production', ...PRODUCTION, ...settings, ECPAY_STAGE: 'true' }).ecpay.stage,
      ).toBe(true);
    }
    expect(loadConfig({ NODE_ENV: 'production', ...PRODUCTION }).ecpay.stage).toBe(false);
    // Outside production the published test merchant stays the default.
    expect(loadConfig({}).ecpay.merchantId).toBe('3002607');
    expect(problems({ ECPAY_STAGE: 'maybe' })[0]).toMatch(/^ECPAY_STAGE: /);
  });

  it("refuses ECPay's published e-invoice test merchant, keys and stage host in production unless ECPAY_STAGE says so", () => {
    const stage = [
      { ECPAY_EINVOICE_MERCHANT_ID: '2000132' },
      { ECPAY_EINVOICE_HASH_KEY: 'ejCk326UnaZWKisg' },
      { ECPAY_EINVOICE_HASH_IV: 'q9jcZX8Ib9LM8wYk' },
      { ECPAY_EINVOICE_ENDPOINT: 'https://einvoice-stage.ecpay.com.tw' },
    ];
    for (const settings of stage) {
      const lines = problems({ NODE_ENV: 'production', ...PRODUCTION, ...settings });
      expect(
        lines.map((l) => l.split(':')[0]),
        JSON.stringify(settings),
      ).toEqual(Object.keys(settings));
      expect(
        loadConfig({ NODE_ENV: 'production', ...PRODUCTION, ...settings, ECPAY_STAGE: 'true' }).einvoice
          .endpoint,
      ).toBe(settings.ECPAY_EINVOICE_ENDPOINT ?? 'https://einvoice.ecpay.com.tw');
    }
    // A key pair must be AES-128's: 16 characters.
    expect(problems({ ECPAY_EINVOICE_HASH_KEY: 'short' })[0]).toMatch(
      /^ECPAY_EINVOICE_HASH_KEY: must be the 16-character/,
    );
    // Outside production: the published stage merchant and the built-in sandbox.
    expect(loadConfig({}).einvoice).toEqual({
      endpoint: undefined,
      merchantId: '2000132',
      hashKey: 'ejCk326UnaZWKisg',
      hashIV: 'q9jcZX8Ib9LM8wYk',
    });
  });

  it("refuses ECPay's published logistics test merchants, keys and stage host in production unless ECPAY_STAGE says so", () => {
    const stage = [
      {
        ECPAY_LOGISTICS_MERCHANT_ID: '2000933',
        ECPAY_LOGISTICS_HASH_KEY: 'XBERn1YOvpM9nfZc',
        ECPAY_LOGISTICS_HASH_IV: 'h1ONHk4P4yqbl5LK',
      },
      {
        ECPAY_LOGISTICS_MERCHANT_ID: '2000132',
        ECPAY_LOGISTICS_HASH_KEY: '5294y06JbISpM5x9',
        ECPAY_LOGISTICS_HASH_IV: 'v77hoKGq4kWxNNIS',
      },
      { ECPAY_LOGISTICS_ENDPOINT: 'https://logistics-stage.ecpay.com.tw' },
    ];
    for (const settings of stage) {
      const lines = problems({ NODE_ENV: 'production', ...PRODUCTION, ...settings });
      expect(lines.length, JSON.stringify(settings)).toBeGreaterThan(0);
      expect(
        lines.every((l) => /^ECPAY_LOGISTICS_/.test(l)),
        lines.join('\n'),
      ).toBe(true);
      expect(lines.join('\n')).not.toContain(settings.ECPAY_LOGISTICS_HASH_KEY ?? '(no key)');
      expect(
        loadConfig({ NODE_ENV: 'production', ...PRODUCTION, ...settings, ECPAY_STAGE: 'true' }).logistics
          .endpoint,
      ).toBeDefined();
    }
  });

  it('defaults logistics to the sandbox with the published stage merchant of the chosen type, and checks the sender', () => {
    const c2c = loadConfig({}).logistics;
    expect(c2c).toMatchObject({
      endpoint: undefined,
      type: 'C2C',
      merchantId: '2000933',
      hashKey: 'XBERn1YOvpM9nfZc',
    });
    expect(loadConfig({ ECPAY_LOGISTICS_TYPE: 'B2C' }).logistics).toMatchObject({
      type: 'B2C',
      merchantId: '2000132',
      hashKey: '5294y06JbISpM5x9',
    });
    expect(
      loadConfig({ ECPAY_LOGISTICS_ENDPOINT: 'https://logistics-stage.ecpay.com.tw/' }).logistics.endpoint,
    ).toBe('https://logistics-stage.ecpay.com.tw');
    expect(problems({ ECPAY_LOGISTICS_TYPE: 'B2B' })[0]).toMatch(
      /^ECPAY_LOGISTICS_TYPE: must be B2C .* or C2C/,
    );
    // At most 10 characters with a Chinese character counting as two, and none of ECPay's forbidden ones.
    expect(loadConfig({ ECPAY_LOGISTICS_SENDER_NAME: '山嵐茶事茶' }).logistics.sender.name).toBe(
      '山嵐茶事茶',
    );
    expect(loadConfig({ ECPAY_LOGISTICS_SENDER_NAME: 'Shanlan Co' }).logistics.sender.name).toBe(
      'Shanlan Co',
    );
    expect(problems({ ECPAY_LOGISTICS_SENDER_NAME: '山嵐茶事茶行' })[0]).toMatch(
      /^ECPAY_LOGISTICS_SENDER_NAME: /,
    );
    expect(problems({ ECPAY_LOGISTICS_SENDER_NAME: 'Tea & Co' })[0]).toMatch(
      /^ECPAY_LOGISTICS_SENDER_NAME: /,
    );
    expect(problems({ ECPAY_LOGISTICS_SENDER_PHONE: '049-2771234' })[0]).toMatch(
      /^ECPAY_LOGISTICS_SENDER_PHONE: must be a mobile number/,
    );
    expect(problems({ ECPAY_LOGISTICS_MERCHANT_ID: 'abc' })[0]).toMatch(/^ECPAY_LOGISTICS_MERCHANT_ID: /);
  });

  it('lets SEED_DEMO=0 turn the demo data off in development', () => {
    expect(loadConfig({ SEED_DEMO: '0' }).seedDemo).toBe(false);
  });

  it('takes a backup key of 32 bytes in base64 or hex, and refuses anything else without echoing it', () => {
    const bytes = Buffer.alloc(32, 7);
    expect(loadConfig({}).backupEncryptionKey).toBeUndefined();
    expect(loadConfig({ BACKUP_ENCRYPTION_KEY: bytes.toString('base64') }).backupEncryptionKey).toEqual(
      bytes,
    );
    expect(loadConfig({ BACKUP_ENCRYPTION_KEY: bytes.toString('hex') }).backupEncryptionKey).toEqual(bytes);
    for (const bad of [
      'secret-password',
      Buffer.alloc(16, 7).toString('base64'),
      Buffer.alloc(31, 7).toString('hex'),
      `${bytes.toString('hex')}00`,
    ]) {
      const lines = problems({ BACKUP_ENCRYPTION_KEY: bad });
      expect(lines, bad).toEqual([
        `BACKUP_ENCRYPTION_KEY: must be 32 random bytes written as base64 (44 characters) or hex (64 characters); make one with: openssl rand -base64 32 (got ${bad.length} characters)`,
      ]);
    }
  });

  it('keeps accepting for 5 s after SIGTERM in production and not at all elsewhere, unless SHUTDOWN_GRACE_SECONDS says', () => {
    expect(loadConfig({ ...PRODUCTION, NODE_ENV: 'production' }).shutdownGraceMs).toBe(5_000);
    expect(loadConfig({}).shutdownGraceMs).toBe(0);
    expect(loadConfig({ SHUTDOWN_GRACE_SECONDS: '30' }).shutdownGraceMs).toBe(30_000);
    expect(problems({ SHUTDOWN_GRACE_SECONDS: '121' })[0]).toMatch(
      /^SHUTDOWN_GRACE_SECONDS: must be at most 120/,
    );
    expect(problems({ SHUTDOWN_GRACE_SECONDS: '1.5' })[0]).toMatch(
      /^SHUTDOWN_GRACE_SECONDS: must be whole seconds/,
    );
  });
});
