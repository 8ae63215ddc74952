ALTER TABLE "organization_counters" ADD COLUMN "tags" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
-- The change feed's progress total counts tags too: kept like the keychains (0007).
CREATE FUNCTION organization_counters_tags_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO organization_counters (organization_id, tags)
  SELECT organization_id, count(*) FROM inserted GROUP BY organization_id
  ON CONFLICT (organization_id) DO UPDATE SET tags = organization_counters.tags + excluded.tags;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE FUNCTION organization_counters_tags_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE organization_counters AS counters SET tags = counters.tags - gone.total
  FROM (SELECT organization_id, count(*) AS total FROM deleted GROUP BY organization_id) AS gone
  WHERE counters.organization_id = gone.organization_id;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER tags_counted_on_insert AFTER INSERT ON tags REFERENCING NEW TABLE AS inserted
  FOR EACH STATEMENT EXECUTE FUNCTION organization_counters_tags_inserted();--> statement-breakpoint
CREATE TRIGGER tags_counted_on_delete AFTER DELETE ON tags REFERENCING OLD TABLE AS deleted
  FOR EACH STATEMENT EXECUTE FUNCTION organization_counters_tags_deleted();--> statement-breakpoint
INSERT INTO organization_counters (organization_id, tags)
  SELECT organization_id, count(*) FROM tags GROUP BY organization_id
  ON CONFLICT (organization_id) DO UPDATE SET tags = excluded.tags;
