-- A holder renamed re-keys the keychains they hold (users_holder_renamed, 0022) by custodian alone, across
-- organizations: without an index of its own that is a scan of every organization's keychains.
CREATE INDEX "keychains_custodian_idx" ON "keychains" ("custodian_id") WHERE "custodian_id" IS NOT NULL;
