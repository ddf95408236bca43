import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { verifyCheckMacValue } from '../../lib/ecpay-check-mac.ts';
import { acceptForms, formPoster } from '../../lib/form-post.ts';
import { cardActions } from './ecpay/card-action.ts';
import { REFUND_KIND, refundCard } from './refunds.ts';
import { safeFields } from '../../lib/log-redaction.ts';
import { storeCodeOf } from './ecpay/store-code.ts';
import * as orders from '../orders/payment-results.ts';
import { orderDeps } from '../orders/deps.ts';
import linePayRoutes, { appLinePayClient } from './line-pay/routes.ts';

type Form = Record<string, string>;

/**
 * ECPay's calls to the shop. ReturnURL (server to server) records the payment result; the
 * payment-info URL records an ATM virtual account, a CVS code or barcodes; the result URL brings the browser back to
 * /payComplete. Every message must carry a valid CheckMacValue, and a replayed one changes nothing.
 */
const payments: FastifyPluginAsync = async (app) => {
  acceptForms(app, 64 * 1024);
  const { hashKey, hashIV, merchantId } = app.config.ecpay;

  // Card refunds through ECPay's card action API (the card sandbox without ECPAY_ENDPOINT).
  const cardHost = app.config.ecpay.endpoint
    ? new URL(app.config.ecpay.endpoint).origin
    : `${app.config.publicUrl}/sandbox/ecpay`;
  const card = cardActions(
    { merchantId, hashKey, hashIV, host: cardHost, creditCheckCode: app.config.ecpay.creditCheckCode },
    formPoster(app, app.config.publicUrl),
  );
  // LINE Pay (Online API v3), when configured or its built-in sandbox runs (docs/decisions/045).
  const linePay = appLinePayClient(app);
  if (linePay) await app.register(linePayRoutes, { client: linePay });
  app.outbox.handle(REFUND_KIND, (payload, message) =>
    refundCard(
      {
        db: app.db,
        card,
        linePay,
        mailer: app.mailer,
        doneMail: (db, orderId, amount) => orders.refundDoneMail(db, orderId, amount, app.config.publicUrl),
      },
      payload as { refundId: string },
      message.attempts,
    ),
  );

  /** The signed form, or null when it is missing, forged or for another merchant. */
  function signedForm(request: FastifyRequest): Form | null {
    const form = (request.body ?? {}) as Form;
    if (typeof form !== 'object' || !form.CheckMacValue) return null;
    if (!verifyCheckMacValue(form, hashKey, hashIV)) return null;
    if (form.MerchantID !== merchantId) return null;
    return form;
  }

  const notice = (form: Form): orders.PaidNotice => ({
    merchantTradeNo: form.MerchantTradeNo ?? '',
    amount: Number(form.TradeAmt ?? form.TotalAmount ?? Number.NaN),
    tradeNo: form.TradeNo ?? '',
    rtnCode: form.RtnCode ?? '',
    rtnMsg: form.RtnMsg ?? '',
    ...(form.gwsr && /^\d{1,15}$/.test(form.gwsr) ? { gwsr: form.gwsr } : {}),
  });

  const answer = (outcome: orders.PaymentOutcome) =>
    outcome === 'ok'
      ? '1|OK'
      : outcome === 'unknown-trade'
        ? '0|MerchantTradeNo not found'
        : outcome === 'method-mismatch'
          ? '0|PaymentType does not match'
          : '0|TradeAmt does not match';

  app.post('/api/payments/ecpay/notify', async (request, reply) => {
    reply.type('text/plain; charset=utf-8').header('cache-control', 'no-store');
    const form = signedForm(request);
    if (!form) {
      request.log.warn(
        {
          reason: 'bad CheckMacValue or merchant',
          notice: safeFields(request.body, [
            'MerchantID',
            'MerchantTradeNo',
            'RtnCode',
            'TradeAmt',
            'PaymentType',
            'SimulatePaid',
          ]),
        },
        'ECPay notification refused',
      );
      return '0|CheckMacValue error';
    }
    // ECPay's simulated payments (stage "模擬付款") must never mark a real shop's order paid.
    if (form.SimulatePaid === '1' && app.config.isProduction) {
      request.log.warn(
        { merchantTradeNo: form.MerchantTradeNo },
        'ECPay simulated payment ignored in production',
      );
      return '1|OK';
    }
    const outcome =
      form.RtnCode === '1'
        ? await orders.recordPaid(orderDeps(app), notice(form))
        : await orders.recordFailed(orderDeps(app), notice(form));
    if (outcome !== 'ok')
      request.log.warn(
        { outcome, merchantTradeNo: form.MerchantTradeNo },
        'ECPay notification did not match an order',
      );
    return answer(outcome);
  });

  app.post('/api/payments/ecpay/payment-info', async (request, reply) => {
    reply.type('text/plain; charset=utf-8').header('cache-control', 'no-store');
    const form = signedForm(request);
    if (!form) return '0|CheckMacValue error';
    // RtnCode 2: an ATM account was issued; 10100073: a CVS code or barcodes (ECPay's PaymentInfoURL
    // page). Anything else is a failure to issue one.
    if (form.RtnCode === '10100073') {
      const code = storeCodeOf(form);
      if (!code) {
        request.log.warn({ merchantTradeNo: form.MerchantTradeNo }, 'ECPay store code notice unreadable');
        return '0|PaymentNo or Barcode missing';
      }
      return answer(await orders.recordStoreCode(orderDeps(app), { ...notice(form), ...code }));
    }
    if (form.RtnCode !== '2') return answer(await orders.recordFailed(orderDeps(app), notice(form)));
    const outcome = await orders.recordAtmInfo(orderDeps(app), {
      ...notice(form),
      bankCode: form.BankCode ?? '',
      account: form.vAccount ?? '',
      expireDate: form.ExpireDate ?? '',
    });
    return answer(outcome);
  });

  /** The browser's way back (OrderResultURL and ClientRedirectURL). The page reads the outcome from the server. */
  app.post('/api/payments/ecpay/result', async (request, reply) => {
    const form = signedForm(request);
    const orderNo = form?.MerchantTradeNo ? await orders.orderNoOfTrade(app.db, form.MerchantTradeNo) : null;
    return reply.redirect(
      orderNo ? `/payComplete?order=${encodeURIComponent(orderNo)}` : '/payComplete',
      303,
    );
  });
};

export default payments;
