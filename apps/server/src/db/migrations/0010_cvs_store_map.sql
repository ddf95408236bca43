CREATE TABLE "cvs_map_requests" (
	"token" text PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"brand" text NOT NULL,
	"return_to" text NOT NULL,
	"store_id" text,
	"chosen_at" timestamp with time zone,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "cvs_stores" (
	"brand" text NOT NULL,
	"store_id" text NOT NULL,
	"name" text NOT NULL,
	"address" text NOT NULL,
	"phone" text DEFAULT '' NOT NULL,
	"outlying" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "cvs_stores_brand_store_id_pk" PRIMARY KEY("brand","store_id")
);
--> statement-breakpoint
ALTER TABLE "cvs_map_requests" ADD CONSTRAINT "cvs_map_requests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "cvs_map_requests_user_idx" ON "cvs_map_requests" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "cvs_map_requests_expiry_idx" ON "cvs_map_requests" USING btree ("expires_at");