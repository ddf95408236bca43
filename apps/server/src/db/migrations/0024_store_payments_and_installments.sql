ALTER TABLE "orders" ADD COLUMN "installments" integer;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "store" jsonb;--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "installments" integer;--> statement-breakpoint
ALTER TABLE "sandbox_gateway_trades" ADD COLUMN "store" jsonb;