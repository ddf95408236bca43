CREATE TABLE "refunds" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" uuid NOT NULL,
	"key" text NOT NULL,
	"method" text NOT NULL,
	"amount" integer NOT NULL,
	"reason" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"bank" jsonb,
	"result" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"done_at" timestamp with time zone,
	CONSTRAINT "refunds_key_unique" UNIQUE("key")
);
--> statement-breakpoint
CREATE TABLE "sandbox_card_trades" (
	"trade_no" text PRIMARY KEY NOT NULL,
	"gwsr" text NOT NULL,
	"trade" jsonb NOT NULL,
	CONSTRAINT "sandbox_card_trades_gwsr_unique" UNIQUE("gwsr")
);
--> statement-breakpoint
ALTER TABLE "payments" ADD COLUMN "gwsr" text;--> statement-breakpoint
ALTER TABLE "refunds" ADD CONSTRAINT "refunds_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "refunds_order_idx" ON "refunds" USING btree ("order_id");