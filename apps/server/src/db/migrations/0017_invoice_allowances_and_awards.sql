ALTER TABLE "invoice_allowances" ADD COLUMN "state" text DEFAULT 'issued' NOT NULL;--> statement-breakpoint
ALTER TABLE "invoice_allowances" ADD COLUMN "expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "invoice_allowances" ADD COLUMN "issued_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "award_flag" text;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "award_type" text;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "award_checked_at" timestamp with time zone;