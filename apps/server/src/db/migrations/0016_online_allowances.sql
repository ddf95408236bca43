ALTER TABLE "invoice_allowances" ADD COLUMN "state" text DEFAULT 'issued' NOT NULL;--> statement-breakpoint
ALTER TABLE "invoice_allowances" ADD COLUMN "expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "invoice_allowances" ADD COLUMN "issued_at" timestamp with time zone;