CREATE TABLE "logistics_notices" (
	"logistics_id" text NOT NULL,
	"status_code" integer NOT NULL,
	"status_date" text NOT NULL,
	"message" text DEFAULT '' NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "logistics_notices_logistics_id_status_code_status_date_pk" PRIMARY KEY("logistics_id","status_code","status_date")
);
--> statement-breakpoint
CREATE TABLE "sandbox_logistics_shipments" (
	"logistics_id" text PRIMARY KEY NOT NULL,
	"merchant_trade_no" text NOT NULL,
	"fields" jsonb NOT NULL,
	"status_code" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "shipments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"order_id" uuid NOT NULL,
	"merchant_trade_no" text NOT NULL,
	"logistics_id" text NOT NULL,
	"logistics_type" text NOT NULL,
	"sub_type" text NOT NULL,
	"goods_amount" integer NOT NULL,
	"collection_amount" integer DEFAULT 0 NOT NULL,
	"cvs_payment_no" text DEFAULT '' NOT NULL,
	"cvs_validation_no" text DEFAULT '' NOT NULL,
	"booking_note" text DEFAULT '' NOT NULL,
	"status_code" integer NOT NULL,
	"status_message" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "shipments" ADD CONSTRAINT "shipments_order_id_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "shipments_trade_no_idx" ON "shipments" USING btree ("merchant_trade_no");--> statement-breakpoint
CREATE UNIQUE INDEX "shipments_logistics_id_idx" ON "shipments" USING btree ("logistics_id");--> statement-breakpoint
CREATE INDEX "shipments_order_idx" ON "shipments" USING btree ("order_id");