-- Pickup stores were kept as unsigned store-map replies described them, so any member could have
-- rewritten a store's name, address or outlying-island flag for everyone. From now on a store is
-- what the logistics provider's own list (or the owner) says; one is confirmed again the next time
-- a map names it. Orders keep their own copy of the store and are not touched.
DELETE FROM "cvs_stores";
