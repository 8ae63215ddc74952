-- Housekeeping drops settled deliveries after 30 days (webhooks/retention.ts): found by their age, not by a
-- scan of every organization's delivery log.
CREATE INDEX "webhook_deliveries_settled_idx" ON "webhook_deliveries" ("created_at") WHERE "status" <> 'pending';
