import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { pageOf } from '@shop/shared/admin';
import {
  AdminMessage,
  AdminMessageRow,
  MessageListQuery,
  MessageRefParams,
  SetMessageHandledBody,
} from '@shop/shared/admin-settings';
import { recordAudit } from '../../plugins/audit.ts';
import { listMessages, messageDetail, setMessageHandled } from './admin-service.ts';

/** Console API for messages sent through /contact: browse and search, read one, mark handled. */
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
};

export default messagesRoutes;
