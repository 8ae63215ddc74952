-- The subscription plans offered, with stable ids (server/modules/plans/catalog.ts names them).
INSERT INTO "plans" ("id", "name", "amount_in_cents", "recurring_interval", "recurring_interval_count", "transfers_per_month", "sort_order") VALUES
  ('f1a00000-0000-4000-8000-000000000101', 'Essentiel', 1900, 'month', 1, 10, 10),
  ('f1a00000-0000-4000-8000-000000000102', 'Essentiel', 19000, 'year', 1, 10, 11),
  ('f1a00000-0000-4000-8000-000000000201', 'Pro', 4900, 'month', 1, 50, 20),
  ('f1a00000-0000-4000-8000-000000000202', 'Pro', 49000, 'year', 1, 50, 21),
  ('f1a00000-0000-4000-8000-000000000301', 'Entreprise', 9900, 'month', 1, 200, 30),
  ('f1a00000-0000-4000-8000-000000000302', 'Entreprise', 99000, 'year', 1, 200, 31)
ON CONFLICT ("id") DO NOTHING;
