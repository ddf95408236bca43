import fp from 'fastify-plugin';
import helmet from '@fastify/helmet';
import compress from '@fastify/compress';

/**
 * Security headers with a Content-Security-Policy that allows no inline script, and response
 * compression. HTTPS-only headers are sent only when the public URL is https.
 */
export default fp(
  async (app) => {
    const https = app.config.publicUrl.startsWith('https:');
    await app.register(helmet, {
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
          formAction: ["'self'", ...app.extraFormActions],
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
    });
    await app.register(compress, { global: true, threshold: 1024, encodings: ['br', 'gzip', 'deflate'] });
  },
  { name: 'security', dependencies: ['config'] },
);

declare module 'fastify' {
  interface FastifyInstance {
    /** Origins that checkout forms may post to (a payment gateway), added before this plugin. */
    extraFormActions: string[];
  }
}
