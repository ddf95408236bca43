import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { users } from '../../db/schema.ts';
import { createSession } from '../auth/session-service.ts';
import { toCurrentUser } from '../auth/present.ts';
import { mailEntry } from '../../plugins/mail.ts';

const Body = z
  .object({
    email: z.string().max(254, { abort: true }).pipe(z.email()).default('tester@example.com'),
    displayName: z.string().min(1).max(50).default('測試會員'),
    role: z.enum(['customer', 'owner', 'staff', 'viewer']).default('customer'),
  })
  .strict();

/**
 * Test-only helpers. app.ts registers this plugin only when NODE_ENV=test, so it does not exist
 * in development or production builds of the server.
 */
const testSupport: FastifyPluginAsync = async (app) => {
  if (!app.config.isTest) throw new Error('test-support must never be registered outside NODE_ENV=test');
  app
    .withTypeProvider<ZodTypeProvider>()
    .post('/api/test/session', { schema: { body: Body } }, async (request, reply) => {
      const email = request.body.email.toLowerCase();
      const [user] = await app.db
        .insert(users)
        .values({
          email,
          displayName: request.body.displayName,
          emailVerifiedAt: new Date(),
          role: request.body.role,
        })
        .onConflictDoUpdate({
          target: users.email,
          set: { displayName: request.body.displayName, role: request.body.role },
        })
        .returning();
      if (!user) throw new Error('user upsert returned nothing');
      const session = await createSession(app.db, user.id, {
        userAgent: request.headers['user-agent'] ?? null,
        ip: request.ip,
      });
      reply.setSessionCookies(session.token, session.expiresAt);
      return {
        user: toCurrentUser({
          id: user.id,
          email: user.email,
          displayName: user.displayName,
          emailVerified: true,
          role: user.role,
        }),
      };
    });

  // `count` mails into the outbox in one transaction, for `npm run bench`'s mail run.
  const MailBurst = z
    .object({
      count: z.number().int().min(1).max(20_000),
      to: z.string().max(254, { abort: true }).pipe(z.email()),
    })
    .strict();
  app
    .withTypeProvider<ZodTypeProvider>()
    .post('/api/test/mail-burst', { schema: { body: MailBurst } }, async (request) => {
      const { count, to } = request.body;
      const mails = Array.from({ length: count }, (_, i) => ({
        to,
        subject: `山嵐茶事 測試信 ${i + 1}`,
        text: `第 ${i + 1} 封`,
        html: `<p>第 ${i + 1} 封</p>`,
      }));
      await app.db.transaction(async (tx) => {
        for (let i = 0; i < mails.length; i += 500)
          await app.outbox.enqueue(
            tx,
            mails.slice(i, i + 500).map((m) => mailEntry(m)),
          );
      });
      app.outbox.kick();
      return { enqueued: count };
    });
};

export default testSupport;
