import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import { SOCIAL_PROVIDER_NAMES, type SocialProviderId } from '@shop/shared/social-sign-in';
import type { SocialClientConfig } from '../../../config/env.ts';
import { acceptForms, formOf } from '../../../lib/form-post.ts';
import { escapeHtml, hiddenFields, sandboxPage, sendPage } from '../../../lib/sandbox-page.ts';
import { callbackPath, SOCIAL_PROVIDER_FACTS, sandboxIssuerPath } from '../social-providers.ts';

/**
 * A stand-in for LINE Login or Google that speaks their OpenID Connect protocol (discovery
 * document, JWKS, authorize and token endpoints, PKCE S256), so the shop's real client code
 * (openid-client) runs unchanged while nobody needs an account there. The authorize page lets a
 * tester pick or type who they are, and can make the ID token go wrong on purpose. Registered only
 * outside production, per provider without real credentials. Hand-rolled on jose rather than
 * oidc-provider: docs/decisions/040-social-sign-in.md says why.
 */
export interface OidcSandboxOptions {
  readonly provider: SocialProviderId;
  readonly client: SocialClientConfig;
}

/** Ways the tester can make the ID token fail the shop's checks, to see the shop refuse it. */
const MISCHIEF = {
  none: '不模擬（正常登入）',
  'bad-signature': 'ID token 簽章錯誤',
  expired: 'ID token 已過期',
  'wrong-nonce': 'nonce 不符',
  'wrong-audience': 'audience（aud）不是本店',
  'wrong-issuer': 'issuer（iss）不符',
} as const;
type Mischief = keyof typeof MISCHIEF;

interface Identity {
  readonly name: string;
  readonly email: string | null;
  readonly emailVerified: boolean;
}

/** Made-up people to pick from; the form also takes any other. */
const SAMPLES: Readonly<Record<SocialProviderId, readonly Identity[]>> = {
  line: [
    { name: '林小雨', email: 'xiaoyu.lin@example.com', emailVerified: false },
    { name: '陳大文', email: null, emailVerified: false },
  ],
  google: [
    { name: '王美玲', email: 'meiling.wang@example.com', emailVerified: true },
    { name: '張志明', email: 'chihming.chang@example.com', emailVerified: false },
  ],
};

interface IssuedCode {
  readonly redirectUri: string;
  readonly codeChallenge: string;
  readonly nonce: string;
  readonly identity: Identity;
  readonly mischief: Mischief;
  readonly expiresAt: number;
}

const CODE_TTL_MS = 60_000;
const ID_TOKEN_TTL_S = 3600;

/** The provider's subject for a made-up person: stable, shaped like the real ones (LINE `U…`, Google digits). */
function subjectOf(provider: SocialProviderId, identity: Identity): string {
  const digest = createHash('sha256')
    .update(`${provider}:${identity.email ?? identity.name}`)
    .digest();
  if (provider === 'line') return `U${digest.toString('hex').slice(0, 32)}`;
  return (BigInt(`0x${digest.toString('hex').slice(0, 24)}`) % 10n ** 21n).toString().padStart(21, '1');
}

const sameSecret = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

const oidcSandbox: FastifyPluginAsync<OidcSandboxOptions> = async (app, { provider, client }) => {
  if (app.config.isProduction) throw new Error('the sign-in sandbox must never run in production');
  const base = sandboxIssuerPath(provider);
  const issuer = `${app.config.publicUrl}${base}`;
  const redirectUri = `${app.config.publicUrl}${callbackPath(provider)}`;
  const facts = SOCIAL_PROVIDER_FACTS[provider];
  const name = SOCIAL_PROVIDER_NAMES[provider];
  if (!app.config.isTest)
    app.log.info(
      `sign-in: no ${name} credentials, so 「使用 ${name} 登入」 uses the built-in sandbox (${issuer})`,
    );
  acceptForms(app, 32 * 1024);

  // Google signs with RS256 keys published at jwks_uri; LINE publishes ES256 keys (for its SDKs)
  // while a web login's token is HS256 with the channel secret, as LINE does.
  const kid = randomBytes(8).toString('hex');
  const publishedAlg = provider === 'google' ? 'RS256' : 'ES256';
  const signing = await generateKeyPair(publishedAlg, { extractable: true });
  const impostor = await generateKeyPair('RS256');
  const jwks: { keys: JWK[] } = {
    keys: [{ ...(await exportJWK(signing.publicKey)), kid, alg: publishedAlg, use: 'sig' }],
  };
  const codes = new Map<string, IssuedCode>();

  app.get(`${base}/.well-known/openid-configuration`, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return {
      issuer,
      authorization_endpoint: `${issuer}/authorize`,
      token_endpoint: `${issuer}/token`,
      jwks_uri: `${issuer}/certs`,
      response_types_supported: ['code'],
      subject_types_supported: [provider === 'line' ? 'pairwise' : 'public'],
      id_token_signing_alg_values_supported: [publishedAlg],
      scopes_supported: facts.scope.split(' '),
      token_endpoint_auth_methods_supported:
        provider === 'line' ? ['client_secret_post'] : ['client_secret_post', 'client_secret_basic'],
      code_challenge_methods_supported: ['S256'],
      claims_supported: ['sub', 'name', 'email', ...(provider === 'google' ? ['email_verified'] : [])],
    };
  });

  app.get(`${base}/certs`, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return jwks;
  });

  /** The authorization request's parameters, or the reason the sandbox refuses it. */
  function authorizeParams(query: Record<string, string | undefined>): Record<string, string> | string {
    if (query.client_id !== client.clientId) return '用戶端代號（client_id）不是這個商店的。';
    if (query.redirect_uri !== redirectUri) return `redirect_uri 必須是已登記的 ${redirectUri}。`;
    if (query.response_type !== 'code') return 'response_type 必須是 code。';
    if (!query.scope?.split(' ').includes('openid')) return 'scope 必須包含 openid。';
    if (!query.state || !query.nonce) return '缺少 state 或 nonce。';
    if (query.code_challenge_method !== 'S256' || !/^[\w-]{43}$/.test(query.code_challenge ?? ''))
      return '缺少 PKCE（code_challenge，S256）。';
    return {
      client_id: query.client_id,
      redirect_uri: query.redirect_uri,
      response_type: 'code',
      scope: query.scope,
      state: query.state,
      nonce: query.nonce,
      code_challenge: query.code_challenge!,
      code_challenge_method: 'S256',
    };
  }

  const refuse = (reply: FastifyReply, message: string) =>
    sendPage(
      reply,
      400,
      sandboxPage({
        gateway: '登入',
        title: '無法登入',
        body: `<h1>無法登入</h1><p>${escapeHtml(message)}</p>`,
      }),
    );

  app.get(`${base}/authorize`, async (request, reply) => {
    const params = authorizeParams(request.query as Record<string, string | undefined>);
    if (typeof params === 'string') return refuse(reply, params);
    return sendPage(reply, 200, authorizePage(provider, params));
  });

  app.post(`${base}/authorize`, async (request, reply) => {
    const form = formOf(request);
    const params = authorizeParams(form);
    if (typeof params === 'string') return refuse(reply, params);
    const back = new URL(params.redirect_uri!);
    back.searchParams.set('state', params.state!);
    if (form.action === 'cancel') {
      back.searchParams.set('error', 'access_denied');
      return reply.code(303).header('cache-control', 'no-store').redirect(back.toString(), 303);
    }
    const identity = identityFrom(provider, form);
    if (typeof identity === 'string') return refuse(reply, identity);
    const mischief = (form.mischief ?? 'none') in MISCHIEF ? (form.mischief as Mischief) : 'none';
    const code = randomBytes(24).toString('base64url');
    const now = Date.now();
    for (const [key, issued] of codes) if (issued.expiresAt < now) codes.delete(key);
    codes.set(code, {
      redirectUri: params.redirect_uri!,
      codeChallenge: params.code_challenge!,
      nonce: params.nonce!,
      identity,
      mischief,
      expiresAt: now + CODE_TTL_MS,
    });
    back.searchParams.set('code', code);
    return reply.header('cache-control', 'no-store').redirect(back.toString(), 303);
  });

  app.post(`${base}/token`, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const form = formOf(request);
    const basic = /^Basic (.+)$/i.exec(request.headers.authorization ?? '')?.[1];
    const [basicId, basicSecret] = basic
      ? Buffer.from(basic, 'base64').toString().split(':').map(decodeURIComponent)
      : [];
    const clientId = form.client_id ?? basicId;
    const clientSecret = form.client_secret ?? basicSecret;
    if (clientId !== client.clientId || !clientSecret || !sameSecret(clientSecret, client.clientSecret))
      return reply.code(401).send({ error: 'invalid_client' });
    if (form.grant_type !== 'authorization_code')
      return reply.code(400).send({ error: 'unsupported_grant_type' });
    const issued = form.code ? codes.get(form.code) : undefined;
    if (form.code) codes.delete(form.code);
    if (!issued || issued.expiresAt < Date.now() || issued.redirectUri !== form.redirect_uri)
      return reply.code(400).send({ error: 'invalid_grant' });
    const challenge = createHash('sha256')
      .update(form.code_verifier ?? '')
      .digest('base64url');
    if (challenge !== issued.codeChallenge)
      return reply.code(400).send({ error: 'invalid_grant', error_description: 'PKCE verification failed' });
    return {
      access_token: randomBytes(24).toString('base64url'),
      token_type: 'Bearer',
      expires_in: ID_TOKEN_TTL_S,
      scope: facts.scope,
      id_token: await idToken(issued),
    };
  });

  async function idToken(issued: IssuedCode): Promise<string> {
    const { identity, mischief } = issued;
    const now = Math.floor(Date.now() / 1000);
    const iat = mischief === 'expired' ? now - 2 * ID_TOKEN_TTL_S : now;
    const claims: Record<string, unknown> = {
      name: identity.name,
      nonce: mischief === 'wrong-nonce' ? randomBytes(16).toString('base64url') : issued.nonce,
      auth_time: iat,
      ...(identity.email ? { email: identity.email } : {}),
      ...(provider === 'google' && identity.email ? { email_verified: identity.emailVerified } : {}),
      ...(provider === 'line' ? { amr: ['pwd'] } : {}),
    };
    const jwt = new SignJWT(claims)
      .setSubject(subjectOf(provider, identity))
      .setIssuer(mischief === 'wrong-issuer' ? `${issuer}-impostor` : issuer)
      .setAudience(mischief === 'wrong-audience' ? 'someone-else' : client.clientId)
      .setIssuedAt(iat)
      .setExpirationTime(iat + ID_TOKEN_TTL_S);
    if (provider === 'line') {
      const secret = mischief === 'bad-signature' ? `${client.clientSecret}-wrong` : client.clientSecret;
      return jwt.setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(new TextEncoder().encode(secret));
    }
    const key: CryptoKey = mischief === 'bad-signature' ? impostor.privateKey : signing.privateKey;
    return jwt.setProtectedHeader({ alg: 'RS256', kid, typ: 'JWT' }).sign(key);
  }
};

/** Who the tester chose: a sample, or the typed name and address. */
function identityFrom(provider: SocialProviderId, form: Record<string, string>): Identity | string {
  const sample = /^sample-(\d)$/.exec(form.who ?? '');
  if (sample) return SAMPLES[provider][Number(sample[1])] ?? '找不到這個測試身分。';
  const name = (form.name ?? '').trim();
  const email = (form.email ?? '').trim().toLowerCase();
  if (!name || name.length > 40) return '請輸入 1 到 40 個字的名稱。';
  if (email && (email.length > 254 || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)))
    return '電子郵件格式不正確。';
  return { name, email: email || null, emailVerified: provider === 'google' && form.verified === 'yes' };
}

function authorizePage(provider: SocialProviderId, params: Record<string, string>): string {
  const name = SOCIAL_PROVIDER_NAMES[provider];
  const samples = SAMPLES[provider]
    .map(
      (s, i) =>
        `<label class="choice"><input type="radio" name="who" value="sample-${i}"${i === 0 ? ' checked' : ''}> <strong>${escapeHtml(s.name)}</strong> <span class="muted">${
          s.email
            ? `${escapeHtml(s.email)}${provider === 'google' ? (s.emailVerified ? '（已驗證）' : '（未驗證）') : ''}`
            : '（未提供電子郵件）'
        }</span></label>`,
    )
    .join('');
  const verified =
    provider === 'google'
      ? `<fieldset><legend>Google 是否已驗證這個電子郵件</legend><label class="choice"><input type="radio" name="verified" value="yes" checked> 已驗證</label><label class="choice"><input type="radio" name="verified" value="no"> 未驗證</label></fieldset>`
      : `<p class="muted">LINE 不會告訴商店電子郵件是否已驗證，所以本店一律請會員自行驗證。</p>`;
  const mischief = Object.entries(MISCHIEF)
    .map(([value, label]) => `<option value="${value}">${escapeHtml(label)}</option>`)
    .join('');
  return sandboxPage({
    gateway: '登入',
    title: `使用 ${name} 登入`,
    body: `<h1>使用 ${name} 登入（測試）</h1>
<p>山嵐茶事想取得您的名稱與電子郵件。請選一個測試身分，或自行輸入。</p>
<form method="post" action="${escapeHtml(sandboxIssuerPath(provider))}/authorize">${hiddenFields(params)}
<fieldset><legend>測試身分</legend>${samples}
<label class="choice"><input type="radio" name="who" value="custom"> 自行輸入：</label>
<label>名稱 <input type="text" name="name" maxlength="40" autocomplete="off"></label>
<label>電子郵件（可留白） <input type="email" name="email" maxlength="254" autocomplete="off"></label>
${verified}</fieldset>
<label>模擬異常（測試本店的檢查） <select name="mischief">${mischief}</select></label>
<div class="row"><button type="submit" name="action" value="allow">允許並登入</button><button type="submit" name="action" value="cancel" class="secondary">取消</button></div>
</form>`,
  });
}

export default oidcSandbox;
