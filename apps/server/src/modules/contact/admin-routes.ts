import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { pageOf } from '@shop/shared/admin';
import {
  AdminMessage,
  AdminMessageRow,
  MessageListQuery,
  MessageRefParams,
  ReplyMessageBody,
  SetMessageHandledBody,
} from '@shop/shared/admin-settings';
import { formatTaipeiDateTime } from '@shop/shared/taipei-time';
import { renderMail } from '../../lib/mail-layout.ts';
import { recordAudit } from '../../plugins/audit.ts';
import { listMessages, messageDetail, replyToMessage, setMessageHandled } from './admin-service.ts';

/** Console API for messages sent through /contact: browse and search, read one, reply by mail, mark handled. */
const messagesRoutes: FastifyPluginAsync = async (app) => {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/admin/messages',
    {
      config: { permission: 'messages.read' },
      schema: { querystring: MessageListQuery, response: { 200: pageOf(AdminMessageRow) } },
    },
    async (request) => listMessages(app.db, request.query),
  );

  r.get(
    '/api/admin/messages/:referenceNo',
    {
      config: { permission: 'messages.read' },
      schema: { params: MessageRefParams, response: { 200: AdminMessage } },
    },
    async (request) => messageDetail(app.db, request.params.referenceNo),
  );

  r.post(
    '/api/admin/messages/:referenceNo/handled',
    {
      config: { permission: 'messages.write' },
      schema: { params: MessageRefParams, body: SetMessageHandledBody, response: { 200: AdminMessage } },
    },
    async (request) =>
      app.db.transaction(async (tx) => {
        const { message, change } = await setMessageHandled(
          tx,
          request.params.referenceNo,
          request.body.handled,
        );
        if (change)
          await recordAudit(tx, request, {
            action: 'message.handled',
            entity: 'message',
            entityId: message.referenceNo,
            ...change,
          });
        return message;
      }),
  );

  // The reply goes to the sender from the shop's own mail (answering it reaches the shop) and is
  // kept with the message, so everyone in the console sees what was said.
  r.post(
    '/api/admin/messages/:referenceNo/replies',
    {
      config: { permission: 'messages.write' },
      schema: { params: MessageRefParams, body: ReplyMessageBody, response: { 200: AdminMessage } },
    },
    async (request) => {
      const message = await app.db.transaction(async (tx) => {
        const { message, original } = await replyToMessage(
          tx,
          request.params.referenceNo,
          request.body.body,
          {
            id: request.staff?.id ?? null,
            email: request.staff?.email ?? null,
          },
        );
        await app.mailer.enqueue(tx, {
          to: original.email,
          replyTo: app.config.shopNotifyEmail,
          ...renderMail({
            title: `回覆您的來信（${original.referenceNo}）`,
            paragraphs: [
              `${original.name} 您好：`,
              request.body.body,
              `—— 您在 ${formatTaipeiDateTime(original.createdAt)} 來信詢問「${original.subject}」：`,
              original.message,
              '如有其他問題，直接回覆這封信即可。',
            ],
          }),
          meta: { kind: 'contact-reply' },
        });
        await recordAudit(tx, request, {
          action: 'message.replied',
          entity: 'message',
          entityId: original.referenceNo,
          after: { reply: request.body.body },
        });
        return message;
      });
      app.mailer.flush();
      return message;
    },
  );
};

export default messagesRoutes;
