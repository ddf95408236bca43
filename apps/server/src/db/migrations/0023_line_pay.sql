CREATE TABLE "sandbox_line_pay_transactions" (
	"transaction_id" text PRIMARY KEY NOT NULL,
	"order_id" text NOT NULL,
	"channel_id" text NOT NULL,
	"transaction" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "confirming_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "sandbox_line_pay_channel_order_key" ON "sandbox_line_pay_transactions" USING btree ("channel_id","order_id");