import type { OrderStatus } from '@shop/shared/order-status';
import type { Db, DbOrTx } from '../../db/client.ts';
import type { InvoiceDetails } from '../../db/schema.ts';
import type { Mailer } from '../../plugins/mail.ts';
import type { InvoiceClient } from './ecpay-invoice-client.ts';

/** What an invoice is made from; the orders module answers it (`invoiceSubject`). */
export interface InvoiceSubject {
  readonly orderId: string;
  readonly orderNo: string;
  readonly status: OrderStatus;
  readonly invoice: InvoiceDetails;
  readonly lines: ReadonlyArray<{ name: string; quantity: number; unitPrice: number }>;
  readonly shippingFee: number;
  readonly discountTotal: number;
  readonly total: number;
  /** Card instalments (分期期數), written in the invoice's remark; null when paid at once. */
  readonly installments: number | null;
  readonly buyer: { name: string; email: string; verified: boolean; phone: string; address: string };
}

/** What the invoice service and the award checks work with. */
export interface InvoiceDeps {
  readonly db: Db;
  readonly client: InvoiceClient;
  readonly mailer: Mailer;
  readonly publicUrl: string;
  readonly subject: (db: DbOrTx, orderId: string) => Promise<InvoiceSubject | null>;
  readonly now?: () => Date;
}
