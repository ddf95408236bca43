import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import helmet from 'helmet';
import { describe, expect, it } from 'vitest';
import { helmetHeaders, securityHeaderOptions } from './security.ts';

/** What helmet's own middleware puts on a real response with these options. */
function fromMiddleware(options: Parameters<typeof helmet>[0]): Record<string, string> {
  const req = new IncomingMessage(new Socket());
  const res = new ServerResponse(req);
  helmet(options)(req, res, (error?: unknown) => {
    if (error) throw error;
  });
  return Object.fromEntries(Object.entries(res.getHeaders()).map(([name, value]) => [name, String(value)]));
}

describe('security headers worked out once', () => {
  it.each(['http://127.0.0.1:3000', 'https://shop.example.tw'])(
    'are the headers helmet itself sets, behind %s',
    (publicUrl) => {
      const options = securityHeaderOptions(publicUrl, ['https://payment-stage.ecpay.com.tw']);
      const headers = helmetHeaders(options);
      expect(headers).toEqual(fromMiddleware(options));
      expect(headers['content-security-policy']).toContain(
        "form-action 'self' https://payment-stage.ecpay.com.tw",
      );
      expect(Boolean(headers['strict-transport-security'])).toBe(publicUrl.startsWith('https:'));
    },
  );

  it('refuses options helmet refuses, at start', () => {
    expect(() =>
      helmetHeaders({ contentSecurityPolicy: { useDefaults: false, directives: { scriptSrc: ["'self"] } } }),
    ).toThrow();
  });
});
