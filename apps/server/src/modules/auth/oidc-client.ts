import * as oidc from 'openid-client';
import { jwtVerify } from 'jose';
import type { SocialProviderId } from '@shop/shared/social-sign-in';
import { SOCIAL_PROVIDER_IDS } from '@shop/shared/social-sign-in';
import type { AppConfig, SocialClientConfig } from '../../config/env.ts';
import { callbackPath, sandboxIssuerPath, SOCIAL_PROVIDER_FACTS } from './social-providers.ts';

/** Who the provider vouched for, after every check of its ID token passed. */
export interface VouchedIdentity {
  readonly subject: string;
  readonly displayName: string;
  /** Lower-cased; null when the provider gave none. */
  readonly email: string | null;
  /** Only when the provider says so and the shop believes that provider (social-providers.ts). */
  readonly emailVerified: boolean;
}

/** What the browser must bring back: kept server-side with the trip, never sent but as `state`/`nonce`/challenge. */
export interface TripChecks {
  readonly state: string;
  readonly nonce: string;
  readonly codeVerifier: string;
}

/** The provider answered the authorization request with an error (the person cancelled, most often). */
export class ProviderDeclinedError extends Error {
  constructor(readonly error: string) {
    super(`provider answered ${error}`);
    this.name = 'ProviderDeclinedError';
  }
}

/**
 * The shop's OpenID Connect client for each configured provider, on openid-client: discovery,
 * authorization code with PKCE (S256), `state` and `nonce`, and the ID token's issuer, audience,
 * expiry, issue time and `alg` checked by the library. Signatures: Google's (RS256) by the library
 * against the discovery's JWKS (its non-repudiation checks, on); LINE's web-login tokens are HS256
 * with the channel secret, which openid-client does not verify, so jose does, with the same issuer
 * and audience.
 */
export class OidcClients {
  private readonly configs = new Map<SocialProviderId, Promise<oidc.Configuration>>();

  constructor(
    private readonly settings: AppConfig['socialSignIn'],
    private readonly publicUrl: string,
    /** Reaches the providers; the sandboxes through the app in-process (lib/form-post.ts ownFetch). */
    private readonly fetcher: typeof fetch,
  ) {}

  /** The providers this shop offers, in button order. */
  offered(): SocialProviderId[] {
    return SOCIAL_PROVIDER_IDS.filter((p) => this.settings[p] !== undefined);
  }

  private client(provider: SocialProviderId): SocialClientConfig {
    const client = this.settings[provider];
    if (!client) throw new Error(`sign-in provider ${provider} is not configured`);
    return client;
  }

  redirectUri(provider: SocialProviderId): string {
    return `${this.publicUrl}${callbackPath(provider)}`;
  }

  private configuration(provider: SocialProviderId): Promise<oidc.Configuration> {
    let config = this.configs.get(provider);
    if (!config) {
      config = this.discover(provider);
      this.configs.set(provider, config);
      // A provider that did not answer is asked again next time.
      config.catch(() => this.configs.delete(provider));
    }
    return config;
  }

  private async discover(provider: SocialProviderId): Promise<oidc.Configuration> {
    const client = this.client(provider);
    const facts = SOCIAL_PROVIDER_FACTS[provider];
    const issuer = client.sandbox ? `${this.publicUrl}${sandboxIssuerPath(provider)}` : facts.issuer;
    const execute: Array<(config: oidc.Configuration) => void> = [];
    // The sandbox answers on the shop's own address, plain http outside production.
    if (client.sandbox) execute.push(oidc.allowInsecureRequests);
    if (facts.idTokenAlg !== 'HS256') execute.push(oidc.enableNonRepudiationChecks);
    const config = await oidc.discovery(
      new URL(issuer),
      client.clientId,
      { id_token_signed_response_alg: facts.idTokenAlg },
      oidc.ClientSecretPost(client.clientSecret),
      { execute, [oidc.customFetch]: this.fetcher, timeout: 10 },
    );
    config[oidc.customFetch] = this.fetcher;
    return config;
  }

  /** The provider's authorization URL for one trip. */
  async authorizationUrl(provider: SocialProviderId, checks: TripChecks): Promise<URL> {
    const config = await this.configuration(provider);
    return oidc.buildAuthorizationUrl(config, {
      redirect_uri: this.redirectUri(provider),
      scope: SOCIAL_PROVIDER_FACTS[provider].scope,
      state: checks.state,
      nonce: checks.nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(checks.codeVerifier),
      code_challenge_method: 'S256',
      ...(provider === 'google' ? { prompt: 'select_account' } : {}),
    });
  }

  /**
   * Trades the callback's code for tokens and checks the ID token. `callbackQuery` is the query
   * string the provider sent the browser back with. Throws ProviderDeclinedError for an error
   * answer, anything else for a check that failed.
   */
  async exchange(
    provider: SocialProviderId,
    callbackQuery: string,
    checks: TripChecks,
  ): Promise<VouchedIdentity> {
    const config = await this.configuration(provider);
    const client = this.client(provider);
    const facts = SOCIAL_PROVIDER_FACTS[provider];
    const callbackUrl = new URL(`${this.redirectUri(provider)}?${callbackQuery}`);
    let tokens: Awaited<ReturnType<typeof oidc.authorizationCodeGrant>>;
    try {
      tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
        pkceCodeVerifier: checks.codeVerifier,
        expectedState: checks.state,
        expectedNonce: checks.nonce,
        idTokenExpected: true,
      });
    } catch (error) {
      if (error instanceof oidc.AuthorizationResponseError) throw new ProviderDeclinedError(error.error);
      throw error;
    }
    const claims = tokens.claims();
    if (!claims || !tokens.id_token) throw new Error('no ID token');
    if (facts.idTokenAlg === 'HS256')
      await jwtVerify(tokens.id_token, new TextEncoder().encode(client.clientSecret), {
        algorithms: ['HS256'],
        issuer: config.serverMetadata().issuer,
        audience: client.clientId,
      });
    const email =
      typeof claims.email === 'string' && claims.email.includes('@')
        ? claims.email.trim().toLowerCase()
        : null;
    const name = typeof claims.name === 'string' ? claims.name.trim().slice(0, 30) : '';
    return {
      subject: claims.sub,
      displayName: name || (email ? email.split('@')[0]!.slice(0, 30) : '會員'),
      email: email && email.length <= 254 ? email : null,
      emailVerified: Boolean(email) && facts.trustsEmailVerified && claims.email_verified === true,
    };
  }
}
