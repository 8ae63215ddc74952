ALTER TABLE "keychains" ADD COLUMN "key_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "keychains" ADD COLUMN "tag_codes" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
-- GET /keychains shows each keychain's key count and tag codes. They are kept on the keychain by statement
-- triggers on keys (as the counters of 0007 and 0008), so a page is a plain index scan instead of a subquery
-- per row. The updates add and remove (never recount): under READ COMMITTED a recount from the statement's
-- snapshot would miss a key another transaction inserted meanwhile, while `key_count + n` is applied to the
-- row's latest version once its lock is granted. Tags never change code, and a tag on a key cannot be deleted.
CREATE FUNCTION keychain_summaries_add(keychain_ids uuid[], tag_ids uuid[]) RETURNS void
LANGUAGE sql AS $$
  UPDATE keychains AS keychain
  SET key_count = keychain.key_count + added.total, tag_codes = keychain.tag_codes || added.codes
  FROM (
    SELECT changed.keychain_id, count(*) AS total,
      coalesce(array_agg(tags.code) FILTER (WHERE tags.code IS NOT NULL), '{}') AS codes
    FROM unnest(keychain_ids, tag_ids) AS changed(keychain_id, tag_id)
    LEFT JOIN tags ON tags.id = changed.tag_id
    GROUP BY changed.keychain_id
  ) AS added
  WHERE keychain.id = added.keychain_id
$$;--> statement-breakpoint
CREATE FUNCTION keychain_summaries_remove(keychain_ids uuid[], tag_ids uuid[]) RETURNS void
LANGUAGE sql AS $$
  UPDATE keychains AS keychain
  SET key_count = keychain.key_count - gone.total,
    tag_codes = ARRAY(SELECT code FROM unnest(keychain.tag_codes) AS code WHERE code <> ALL (gone.codes))
  FROM (
    SELECT changed.keychain_id, count(*) AS total,
      coalesce(array_agg(tags.code) FILTER (WHERE tags.code IS NOT NULL), '{}') AS codes
    FROM unnest(keychain_ids, tag_ids) AS changed(keychain_id, tag_id)
    LEFT JOIN tags ON tags.id = changed.tag_id
    GROUP BY changed.keychain_id
  ) AS gone
  WHERE keychain.id = gone.keychain_id
$$;--> statement-breakpoint
CREATE FUNCTION keychain_summaries_keys_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM keychain_summaries_add(
    ARRAY(SELECT keychain_id FROM inserted), ARRAY(SELECT tag_id FROM inserted));
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE FUNCTION keychain_summaries_keys_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM keychain_summaries_remove(
    ARRAY(SELECT keychain_id FROM deleted), ARRAY(SELECT tag_id FROM deleted));
  RETURN NULL;
END
$$;--> statement-breakpoint
-- A rename changes neither column: only the keys that moved or changed tag count.
CREATE FUNCTION keychain_summaries_keys_updated() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  from_keychains uuid[];
  from_tags uuid[];
  to_keychains uuid[];
  to_tags uuid[];
BEGIN
  SELECT array_agg(old_key.keychain_id), array_agg(old_key.tag_id),
    array_agg(new_key.keychain_id), array_agg(new_key.tag_id)
  INTO from_keychains, from_tags, to_keychains, to_tags
  FROM old_keys AS old_key JOIN new_keys AS new_key USING (id)
  WHERE (old_key.keychain_id, old_key.tag_id) IS DISTINCT FROM (new_key.keychain_id, new_key.tag_id);
  IF from_keychains IS NOT NULL THEN
    PERFORM keychain_summaries_remove(from_keychains, from_tags);
    PERFORM keychain_summaries_add(to_keychains, to_tags);
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER keys_summarized_on_insert AFTER INSERT ON keys REFERENCING NEW TABLE AS inserted
  FOR EACH STATEMENT EXECUTE FUNCTION keychain_summaries_keys_inserted();--> statement-breakpoint
CREATE TRIGGER keys_summarized_on_delete AFTER DELETE ON keys REFERENCING OLD TABLE AS deleted
  FOR EACH STATEMENT EXECUTE FUNCTION keychain_summaries_keys_deleted();--> statement-breakpoint
CREATE TRIGGER keys_summarized_on_update AFTER UPDATE ON keys REFERENCING OLD TABLE AS old_keys NEW TABLE AS new_keys
  FOR EACH STATEMENT EXECUTE FUNCTION keychain_summaries_keys_updated();--> statement-breakpoint
UPDATE keychains AS keychain SET key_count = summary.total, tag_codes = summary.codes
FROM (
  SELECT keys.keychain_id, count(*) AS total,
    coalesce(array_agg(tags.code) FILTER (WHERE tags.code IS NOT NULL), '{}') AS codes
  FROM keys LEFT JOIN tags ON tags.id = keys.tag_id
  GROUP BY keys.keychain_id
) AS summary
WHERE keychain.id = summary.keychain_id;
