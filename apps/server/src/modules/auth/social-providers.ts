import type { SocialProviderId } from '@shop/shared/social-sign-in';

/**
 * What the shop relies on about each OpenID Connect provider (docs/decisions/040-social-sign-in.md):
 * - LINE Login v2.1: issuer https://access.line.me (discovery at /.well-known/openid-configuration);
 *   `aud` is the channel ID; the ID token of a web login is signed HS256 with the channel secret
 *   (the discovery document lists ES256, which LINE uses for its SDKs); the token endpoint takes the
 *   secret in the body (client_secret_post); `email` needs the e-mail permission and comes without
 *   `email_verified`, so the shop never treats a LINE address as verified.
 * - Google: issuer https://accounts.google.com; ID tokens RS256, keys at the discovery's jwks_uri;
 *   `email_verified` says whether Google vouches for the address.
 */
export interface SocialProviderFacts {
  readonly issuer: string;
  readonly scope: string;
  /** The only `alg` the ID token may carry. */
  readonly idTokenAlg: 'HS256' | 'RS256';
  /** Whether `email_verified` from this provider is believed. */
  readonly trustsEmailVerified: boolean;
}

export const SOCIAL_PROVIDER_FACTS: Readonly<Record<SocialProviderId, SocialProviderFacts>> = {
  line: {
    issuer: 'https://access.line.me',
    scope: 'openid profile email',
    idTokenAlg: 'HS256',
    trustsEmailVerified: false,
  },
  google: {
    issuer: 'https://accounts.google.com',
    scope: 'openid email profile',
    idTokenAlg: 'RS256',
    trustsEmailVerified: true,
  },
};

/** Where the built-in sandbox of a provider lives (outside production, without real credentials). */
export const sandboxIssuerPath = (provider: SocialProviderId) => `/dev/oidc/${provider}`;

/** The redirect URI registered with the provider: the shop's callback. */
export const callbackPath = (provider: SocialProviderId) => `/api/auth/oidc/${provider}/callback`;
