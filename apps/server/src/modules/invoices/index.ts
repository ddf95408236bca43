import fp from 'fastify-plugin';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { CarrierCheckBody, CarrierCheckResponse } from '@shop/shared/carrier-check';
import { acceptForms, formOf, ownFetch } from '../../lib/form-post.ts';
import { enforceLimit } from '../../plugins/rate-limiter.ts';
import { invoiceSubject } from '../orders/read-models.ts';
import { checkInvoiceAwards } from './awards.ts';
import { SANDBOX_EINVOICE_PATH } from './ecpay-invoice-protocol.ts';
import { fetchPost, invoiceClient, type InvoiceClient } from './ecpay-invoice-client.ts';
import {
  ALLOWANCE_RESULT_PATH,
  INVOICE_KINDS,
  allowInvoice,
  allowanceResult,
  carrierChecker,
  issueInvoice,
  voidInvoice,
  type CarrierCheck,
  type InvoiceDeps,
} from './service.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Whether a mobile barcode or donation code exists (cached; `unverified` while ECPay's check is down). */
    checkCarrier(kind: 'mobile' | 'donation', code: string): Promise<CarrierCheck>;
    /** After a draw: asks ECPay which invoices won, records it and mails the member-carrier winners; returns how many won. */
    checkInvoiceAwards(): Promise<number>;
  }
}

/**
 * Uniform e-invoices through ECPay's B2C API (or the built-in sandbox when no endpoint is set,
 * never in production): the outbox handlers that issue, void and credit them, and the checkout's
 * check of a mobile barcode or donation code.
 */
export default fp(
  async (app) => {
    const settings = {
      ...app.config.einvoice,
      host: app.config.einvoice.endpoint ?? `${app.config.publicUrl}${SANDBOX_EINVOICE_PATH}`,
    };
    const client: InvoiceClient = invoiceClient(
      settings,
      fetchPost({ fetchImpl: ownFetch(app, app.config.publicUrl) }),
    );
    const deps: InvoiceDeps = {
      db: app.db,
      client,
      mailer: app.mailer,
      publicUrl: app.config.publicUrl,
      subject: invoiceSubject,
    };
    if (!app.config.einvoice.endpoint && !app.config.isTest)
      app.log.info(
        `invoices: no ECPAY_EINVOICE_ENDPOINT, so e-invoices are issued by the built-in sandbox (${settings.host})`,
      );

    app.outbox.handle(INVOICE_KINDS.issue, (payload, message) =>
      issueInvoice(deps, payload as { orderId: string }, message.attempts),
    );
    app.outbox.handle(INVOICE_KINDS.void, (payload) =>
      voidInvoice(deps, payload as { orderId: string; orderNo: string; reason: string }),
    );
    app.outbox.handle(INVOICE_KINDS.allowance, (payload) =>
      allowInvoice(
        deps,
        payload as { orderId: string; orderNo: string; key: string; amount: number; reason: string },
      ),
    );

    // ECPay's post once the buyer agreed to an online allowance (form fields, signed with CheckMacValue).
    // Its own scope, so the form parser stays with it.
    await app.register(async (scope) => {
      acceptForms(scope, 16 * 1024);
      scope.post(ALLOWANCE_RESULT_PATH, async (request, reply) => {
        reply.type('text/plain; charset=utf-8').header('cache-control', 'no-store');
        const answer = await allowanceResult(deps, app.config.einvoice, formOf(request));
        if (!answer.startsWith('1|'))
          request.log.warn(
            { answer, allowanceNo: formOf(request).IA_Allow_No },
            'ECPay allowance notice refused',
          );
        return answer;
      });
    });

    const check = carrierChecker(client);
    app.decorate('checkCarrier', check);
    app.decorate('checkInvoiceAwards', () => checkInvoiceAwards(deps));

    // For the checkout, so members only; a burst of guesses is cut off.
    app.withTypeProvider<ZodTypeProvider>().post(
      '/api/invoices/check-carrier',
      {
        onRequest: app.requireUser,
        schema: { body: CarrierCheckBody, response: { 200: CarrierCheckResponse } },
      },
      async (request, reply) => {
        reply.header('cache-control', 'no-store');
        await enforceLimit(app.limiter, `carrier-check:user:${request.auth!.user.id}`, {
          max: 30,
          windowMs: 60_000,
        });
        const { kind, code } = request.body;
        return { result: await check(kind, code) };
      },
    );
  },
  { name: 'invoices', dependencies: ['outbox', 'mail'] },
);
