/** The login token lives in a cookie named `token`, HttpOnly (docs/product-rules.md#client-stores). */
export const TOKEN_COOKIE = 'token';
/** Non-secret companion set and cleared with `token`, so the client router knows a session exists. */
export const SIGNED_IN_COOKIE = 'signed_in';

/** Providers reported for an account (the user store, docs/product-rules.md#client-stores); our own backend only has passwords. */
export const PASSWORD_PROVIDER = 'password';
