/** Spec §3: the login token lives in a cookie named `token` (HttpOnly, see clarification 2). */
export const TOKEN_COOKIE = 'token';
/** Non-secret companion set and cleared with `token`, so the client router knows a session exists. */
export const SIGNED_IN_COOKIE = 'signed_in';

/** Providers reported for an account (spec §3 user store); our own backend only has passwords. */
export const PASSWORD_PROVIDER = 'password';
