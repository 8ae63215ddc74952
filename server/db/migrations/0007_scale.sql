-- Trigram indexes serve `like '%…%'` searches at any size (pg_trgm: PostgreSQL contrib, a trusted extension; PGlite loads it).
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
CREATE TABLE "organization_counters" (
	"organization_id" uuid PRIMARY KEY NOT NULL,
	"keychains" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "organization_counters" ADD CONSTRAINT "organization_counters_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "keychains_name_trgm_idx" ON "keychains" USING gin (lower("name") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "tags_code_trgm_idx" ON "tags" USING gin (lower("code") gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "tags_name_trgm_idx" ON "tags" USING gin (lower("name") gin_trgm_ops);--> statement-breakpoint
-- The dashboard's keychain count, kept by statement-level triggers (one update per statement, not per row).
CREATE FUNCTION organization_counters_keychains_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO organization_counters (organization_id, keychains)
  SELECT organization_id, count(*) FROM inserted GROUP BY organization_id
  ON CONFLICT (organization_id) DO UPDATE SET keychains = organization_counters.keychains + excluded.keychains;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE FUNCTION organization_counters_keychains_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE organization_counters AS counters SET keychains = counters.keychains - gone.total
  FROM (SELECT organization_id, count(*) AS total FROM deleted GROUP BY organization_id) AS gone
  WHERE counters.organization_id = gone.organization_id;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER keychains_counted_on_insert AFTER INSERT ON keychains REFERENCING NEW TABLE AS inserted
  FOR EACH STATEMENT EXECUTE FUNCTION organization_counters_keychains_inserted();--> statement-breakpoint
CREATE TRIGGER keychains_counted_on_delete AFTER DELETE ON keychains REFERENCING OLD TABLE AS deleted
  FOR EACH STATEMENT EXECUTE FUNCTION organization_counters_keychains_deleted();--> statement-breakpoint
INSERT INTO organization_counters (organization_id, keychains)
  SELECT organization_id, count(*) FROM keychains GROUP BY organization_id;
