import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';
import compress from '@fastify/compress';
import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * Security headers with a Content-Security-Policy that allows no inline script, and response
 * compression. HTTPS-only headers are sent only when the public URL is https.
 *
 * The headers are helmet's, worked out once at start: they depend on the options only, never on
 * the request. (@fastify/helmet made helmet's middleware afresh for every request, parsing the
 * policy each time: about 5 % of the shop's CPU on a cached product page; docs/decisions/022.)
 */
export default fp(
  async (app) => {
    const headers = helmetHeaders(securityHeaderOptions(app.config.publicUrl, app.extraFormActions));
    app.addHook('onRequest', (_request, reply, done) => {
      reply.headers(headers);
      done();
    });
    await app.register(compress, { global: true, threshold: 1024, encodings: ['br', 'gzip', 'deflate'] });
  },
  { name: 'security', dependencies: ['config'] },
);

/** Helmet's options for this shop: the policy, and HSTS only behind https. */
export function securityHeaderOptions(publicUrl: string, extraFormActions: string[]): HelmetOptions {
  const https = publicUrl.startsWith('https:');
  return {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // React sets style properties through the CSSOM; inline style attributes stay allowed.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'"],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'", ...extraFormActions],
        frameAncestors: ["'none'"],
        // Media videos play in YouTube's privacy-enhanced player, loaded only when a visitor clicks.
        frameSrc: ['https://www.youtube-nocookie.com'],
        ...(https ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    strictTransportSecurity: https ? { maxAge: 15_552_000, includeSubDomains: true } : false,
    crossOriginEmbedderPolicy: false,
    // Full referrers stay on this site; other sites see only the origin. (no-referrer would make
    // browsers send `Origin: null` on our own form posts.)
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
  };
}

/** The headers helmet's middleware sets with these options (run once on a recording response). */
export function helmetHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader(name: string, value: unknown) {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  let failure: unknown;
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => {
    failure = error;
  });
  if (failure) throw failure instanceof Error ? failure : new Error(String(failure));
  return headers;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Origins that checkout forms may post to (a payment gateway), added before this plugin. */
    extraFormActions: string[];
  }
}
