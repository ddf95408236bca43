ALTER TABLE "coupons" ADD COLUMN "birthday_year" integer;--> statement-breakpoint
-- Birthday coupons issued before this migration (codes BDAYyyyy-…): the first per member and year gets the year; later duplicates stay as they are.
UPDATE "coupons" c SET "birthday_year" = substring(c."code" from 5 for 4)::int
WHERE c."owner_id" IS NOT NULL AND c."code" ~ '^BDAY[0-9]{4}-'
  AND c."id" = (SELECT d."id" FROM "coupons" d WHERE d."owner_id" = c."owner_id" AND substring(d."code" from 1 for 8) = substring(c."code" from 1 for 8) ORDER BY d."created_at", d."id" LIMIT 1);--> statement-breakpoint
CREATE UNIQUE INDEX "coupons_birthday_once" ON "coupons" USING btree ("owner_id","birthday_year") WHERE "coupons"."birthday_year" is not null;
