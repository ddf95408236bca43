ALTER TABLE "invoices" ADD COLUMN "award_flag" text;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "award_type" text;--> statement-breakpoint
ALTER TABLE "invoices" ADD COLUMN "award_checked_at" timestamp with time zone;