import type { FastifyReply, FastifyRequest } from 'fastify';
import { DEVICE_COOKIE, DEVICE_COOKIE_MAX_AGE_S } from './known-device.ts';
import type { RequestMeta } from './service.ts';

/** What the identity services need to know about a request: the client address, agent and known-device cookie. */
export function requestMeta(request: FastifyRequest): RequestMeta {
  return {
    ip: request.ip,
    userAgent: request.headers['user-agent'] ?? null,
    device: request.cookies[DEVICE_COOKIE],
  };
}

/** Keeps the browser's known-device mark (HttpOnly, only ever read by the API). */
export function setDeviceCookie(reply: FastifyReply, value: string | null, publicUrl: string): void {
  if (!value) return;
  reply.setCookie(DEVICE_COOKIE, value, {
    path: '/api/',
    httpOnly: true,
    sameSite: 'lax',
    secure: publicUrl.startsWith('https:'),
    maxAge: DEVICE_COOKIE_MAX_AGE_S,
  });
}
