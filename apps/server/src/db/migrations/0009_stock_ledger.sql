ALTER TABLE "stock_adjustments" ADD COLUMN "kind" text DEFAULT 'adjustment' NOT NULL;--> statement-breakpoint
ALTER TABLE "stock_adjustments" ADD COLUMN "order_no" text;--> statement-breakpoint
UPDATE "stock_adjustments" SET "kind" = CASE WHEN "reason" LIKE 'CSV 匯入%' THEN 'import' WHEN "reason" LIKE '%初始庫存' THEN 'initial' ELSE 'adjustment' END;--> statement-breakpoint
INSERT INTO "stock_adjustments" ("variant_id", "delta", "stock_after", "kind", "reason", "at")
SELECT v."id", v."stock" - coalesce(s."total", 0), v."stock", 'opening', '庫存帳啟用時的期初庫存', now()
FROM "product_variants" v
LEFT JOIN (SELECT "variant_id", sum("delta")::int AS "total" FROM "stock_adjustments" GROUP BY "variant_id") s ON s."variant_id" = v."id";
