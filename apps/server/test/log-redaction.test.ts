import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../src/config/env.ts';

const RESET_CODE = 'ResetCodeNobodyMaySee0123456789abcdefghijk';
const VERIFY_CODE = 'VerifyCodeNobodyMaySee0123456789abcdefghij';
const FORGED_MAC = 'F0RGEDCHECKMACVALUE0000000000000000000000000000000000000000000000';

/**
 * The real server process, logging as it does on a host (JSON lines on stdout, level info), so
 * the test reads exactly what an operator's log collector would keep.
 */
describe('request logs keep no secrets', () => {
  let child: ChildProcess;
  let output = '';
  let base = '';
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shop-log-test-'));

  beforeAll(async () => {
    child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/server.ts'], {
      cwd: REPO_ROOT,
      env: {
        PATH: process.env.PATH,
        NODE_ENV: 'development',
        PORT: '0',
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        SEED_DEMO: '0',
        LOG_LEVEL: 'info',
        WEB_DIST: path.join(dataDir, 'no-web-build'),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    const started = Date.now();
    while (!/running at http:\/\/localhost:(\d+)/.test(output)) {
      if (child.exitCode !== null || Date.now() - started > 170_000)
        throw new Error(`server did not start:\n${output}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    base = `http://127.0.0.1:${/running at http:\/\/localhost:(\d+)/.exec(output)![1]}`;
  }, 180_000);

  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  /** Log lines written since `mark`, parsed. */
  const linesSince = async (mark: number) => {
    await new Promise((r) => setTimeout(r, 300));
    return output
      .slice(mark)
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  };

  it('leaves reset and verification codes out of logged URLs, keeping the rest of the address', async () => {
    const mark = output.length;
    await fetch(`${base}/resetPassword?code=${RESET_CODE}`);
    await fetch(`${base}/api/auth/action-code?kind=reset-password&code=${RESET_CODE}`);
    await fetch(`${base}/emailVerification?lang=zh&code=${VERIFY_CODE}`);
    await fetch(`${base}/api/auth/action-code?kind=verify-email&token=${VERIFY_CODE}&oobCode=${VERIFY_CODE}`);
    const lines = await linesSince(mark);
    const logged = JSON.stringify(lines);
    expect(logged).not.toContain(RESET_CODE);
    expect(logged).not.toContain(VERIFY_CODE);
    // Still useful to an operator: the path and the harmless parameters remain.
    const urls = lines.map((l) => (l.req as { url?: string } | undefined)?.url).filter(Boolean);
    expect(urls).toContain('/resetPassword?code=[redacted]');
    expect(urls).toContain('/emailVerification?lang=zh&code=[redacted]');
  });

  it("leaves an unsubscribe link's signature out of logged URLs", async () => {
    const mark = output.length;
    const id = '0c3936f2-86ad-44f4-873a-e19bdda98f11';
    const signature = 'UnsubscribeSignatureNobodyMaySee0123456789';
    await fetch(`${base}/unsubscribe/${id}.${signature}`);
    await fetch(`${base}/unsubscribe/${id}.${signature}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    const lines = await linesSince(mark);
    expect(JSON.stringify(lines)).not.toContain(signature);
    const urls = lines.map((l) => (l.req as { url?: string } | undefined)?.url).filter(Boolean);
    expect(urls).toContain(`/unsubscribe/${id}.[redacted]`);
  });

  it('logs a refused payment notice by its order number and reason, never its CheckMacValue or card digits', async () => {
    const mark = output.length;
    const form = new URLSearchParams({
      MerchantID: '3002607',
      MerchantTradeNo: 'S2026010100001P1',
      RtnCode: '1',
      RtnMsg: '交易成功',
      TradeAmt: '600',
      TradeNo: '2401011234567890',
      PaymentType: 'Credit_CreditCard',
      card4no: '2222',
      card6no: '431195',
      CustomField1: 'private note',
      CheckMacValue: FORGED_MAC,
    });
    const res = await fetch(`${base}/api/payments/ecpay/notify`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: form.toString(),
    });
    expect(await res.text()).toBe('0|CheckMacValue error');
    const lines = await linesSince(mark);
    const refusal = lines.find(
      (l) => typeof l.msg === 'string' && l.msg.includes('ECPay notification refused'),
    );
    expect(refusal, JSON.stringify(lines)).toBeDefined();
    expect(JSON.stringify(refusal)).toContain('S2026010100001P1');
    const logged = JSON.stringify(lines);
    for (const secret of [FORGED_MAC, '431195', 'private note']) expect(logged).not.toContain(secret);
    expect(logged).not.toMatch(/"card4no"/);
  });
});
