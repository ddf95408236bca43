import { type z } from 'zod';
import type { Db } from '../../db/client.ts';
import type { IssueData } from './sandbox-rules.ts';
import * as repo from './sandbox-repo.ts';

/**
 * Where the e-invoice sandbox keeps the invoices it issued: in memory (unit tests) or in the
 * database (the app, so a restarted sandbox still knows them, as ECPay would; SQL in sandbox-repo.ts).
 */

/** Invoices the in-memory store keeps at most; the oldest are forgotten first. */
const MAX_INVOICES = 10_000;

export interface SandboxAllowance {
  readonly allowanceNo: string;
  readonly amount: number;
  /** IA_Date as ECPay writes it (yyyy-MM-dd HH:mm:ss, Taiwan time). */
  readonly date: string;
  readonly voided: boolean;
  /**
   * An online allowance (AllowanceByCollegiate): waiting for the buyer's consent until `expiresAt`
   * (ISO time; it lapses unanswered after that), agreed when the buyer clicked, with `date` then
   * the day it was issued. A pending one already holds its amount of the invoice.
   */
  readonly online?: {
    readonly state: 'pending' | 'agreed';
    readonly expiresAt: string;
    readonly returnUrl: string;
    readonly notifyMail: string;
  };
}

/**
 * An invoice as the sandbox keeps it. Plain JSON throughout (its dates are ECPay's own date
 * strings, not Date objects), so the database store keeps it in a jsonb column and reads it back
 * unchanged.
 */
export interface SandboxInvoice {
  readonly invoiceNo: string;
  /** As the shop sent it; compared in upper case. */
  readonly relateNumber: string;
  /** yyyy-MM-dd HH:mm:ss, Taiwan time. */
  readonly invoiceDate: string;
  readonly randomNumber: string;
  readonly salesAmount: number;
  readonly data: z.infer<typeof IssueData>;
  readonly voided: boolean;
  readonly allowances: readonly SandboxAllowance[];
  /** After the draw (set through the sandbox's /award route): not won ('0'), or won ('1') the prize `type` (IIS_Award_Type). */
  readonly award?: { readonly flag: '0' | '1'; readonly type: string };
}

/** Where the sandbox keeps the invoices it issued. */
export interface SandboxInvoiceStore {
  get(invoiceNo: string): Promise<SandboxInvoice | undefined>;
  /** By RelateNumber in any letter case: ECPay treats ABC1 and abc1 as the same number. */
  getByRelateNumber(relateNumber: string): Promise<SandboxInvoice | undefined>;
  /**
   * Keeps a newly issued invoice unless its RelateNumber (in any case) or its number is taken, and
   * says which was. Checking and keeping are one step, so two issues of one RelateNumber that
   * arrive together never both succeed.
   */
  add(invoice: SandboxInvoice): Promise<'added' | 'relate-number-taken' | 'invoice-number-taken'>;
  /** Replaces an invoice already kept (voided, an allowance made or voided). */
  save(invoice: SandboxInvoice): Promise<void>;
  /** Whether an allowance number was ever given out, on any invoice. */
  allowanceNoTaken(allowanceNo: string): Promise<boolean>;
}

/** Invoices in memory, at most `limit`, the oldest forgotten first; all of them gone on restart. */
export function memoryEinvoices(limit = MAX_INVOICES): SandboxInvoiceStore {
  const invoices = new Map<string, SandboxInvoice>();
  const byRelate = new Map<string, SandboxInvoice>();
  const allowanceNos = new Set<string>();
  return {
    async get(invoiceNo) {
      return invoices.get(invoiceNo);
    },
    async getByRelateNumber(relateNumber) {
      return byRelate.get(relateNumber.toUpperCase());
    },
    async add(invoice) {
      const relate = invoice.relateNumber.toUpperCase();
      if (byRelate.has(relate)) return 'relate-number-taken';
      if (invoices.has(invoice.invoiceNo)) return 'invoice-number-taken';
      invoices.set(invoice.invoiceNo, invoice);
      byRelate.set(relate, invoice);
      while (invoices.size > limit) {
        const oldest = invoices.values().next().value;
        if (!oldest) break;
        invoices.delete(oldest.invoiceNo);
        byRelate.delete(oldest.relateNumber.toUpperCase());
      }
      return 'added';
    },
    async save(invoice) {
      // One forgotten meanwhile stays forgotten (a Map keeps a replaced entry in its old place, so
      // the order of forgetting is still the order of issue).
      if (!invoices.has(invoice.invoiceNo)) return;
      invoices.set(invoice.invoiceNo, invoice);
      byRelate.set(invoice.relateNumber.toUpperCase(), invoice);
      for (const a of invoice.allowances) allowanceNos.add(a.allowanceNo);
    },
    async allowanceNoTaken(allowanceNo) {
      return allowanceNos.has(allowanceNo);
    },
  };
}

/**
 * Invoices in the database (sandbox_einvoices), so a restarted sandbox still knows what it issued:
 * a retried issue finds the invoice by RelateNumber instead of issuing a second one, and an
 * invoice issued before the restart can still be voided or credited.
 */
export function dbEinvoices(db: Db): SandboxInvoiceStore {
  const stored = (invoice: SandboxInvoice) => invoice as unknown as Record<string, unknown>;
  const revive = (json: Record<string, unknown> | undefined) =>
    json ? (json as unknown as SandboxInvoice) : undefined;
  const byRelate = async (relateNumber: string) => revive(await repo.invoiceByRelateNumber(db, relateNumber));
  return {
    get: async (invoiceNo) => revive(await repo.invoiceByNo(db, invoiceNo)),
    getByRelateNumber: byRelate,
    async add(invoice) {
      if (await repo.insertInvoice(db, invoice.invoiceNo, invoice.relateNumber, stored(invoice)))
        return 'added';
      return (await byRelate(invoice.relateNumber)) ? 'relate-number-taken' : 'invoice-number-taken';
    },
    save: (invoice) => repo.saveInvoice(db, invoice.invoiceNo, stored(invoice)),
    allowanceNoTaken: (allowanceNo) => repo.allowanceNoTaken(db, allowanceNo),
  };
}
