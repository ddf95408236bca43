import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';
import compress from '@fastify/compress';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ThirdPartySources } from '@shop/shared/analytics-providers';

export interface SecurityOptions {
  /**
   * The hosts of the measurement providers the owner configured (site settings), added to
   * script-src, connect-src and img-src; none when none is configured. Asked on every request:
   * the headers are worked out again only when it answers a different object.
   */
  thirdPartySources?: () => ThirdPartySources;
}

const NO_SOURCES: ThirdPartySources = { scriptSrc: [], connectSrc: [], imgSrc: [] };

/**
 * Security headers with a Content-Security-Policy that allows no inline script, and response
 * compression. HTTPS-only headers are sent only when the public URL is https.
 *
 * The headers are helmet's, worked out once at start: they depend on the options only, never on
 * the request, and on the configured providers, which change only when the owner saves them.
 * (@fastify/helmet made helmet's middleware afresh for every request, parsing the policy each
 * time: about 5 % of the shop's CPU on a cached product page; docs/decisions/022.)
 */
export default fp<SecurityOptions>(
  async (app, options) => {
    const sourcesNow = options.thirdPartySources ?? (() => NO_SOURCES);
    let sources = sourcesNow();
    let headers = helmetHeaders(securityHeaderOptions(app.config.publicUrl, app.extraFormActions, sources));
    app.addHook('onRequest', (_request, reply, done) => {
      const now = sourcesNow();
      if (now !== sources) {
        sources = now;
        headers = helmetHeaders(securityHeaderOptions(app.config.publicUrl, app.extraFormActions, now));
      }
      reply.headers(headers);
      done();
    });
    await app.register(compress, { global: true, threshold: 1024, encodings: ['br', 'gzip', 'deflate'] });
  },
  { name: 'security', dependencies: ['config'] },
);

/** Helmet's options for this shop: the policy, and HSTS only behind https. */
export function securityHeaderOptions(
  publicUrl: string,
  extraFormActions: string[],
  thirdParty: ThirdPartySources = NO_SOURCES,
): HelmetOptions {
  const https = publicUrl.startsWith('https:');
  return {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        // Measurement scripts only from the configured providers' hosts (docs/decisions/042); the
        // page loads them only after the visitor's consent.
        scriptSrc: ["'self'", ...thirdParty.scriptSrc],
        // React sets style properties through the CSSOM; inline style attributes stay allowed.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', ...thirdParty.imgSrc],
        fontSrc: ["'self'"],
        connectSrc: ["'self'", ...thirdParty.connectSrc],
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
