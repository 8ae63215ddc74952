-- A keychain's tag codes are kept in code order ("C": as JavaScript compares ASCII codes), so the list reads
-- them as they are (the page's JSON is written by the database: keychains/summary-json.ts) instead of
-- sorting them on every read of every row.
CREATE OR REPLACE FUNCTION keychain_summaries_add(keychain_ids uuid[], tag_ids uuid[]) RETURNS void
LANGUAGE sql AS $$
  UPDATE keychains AS keychain
  SET key_count = keychain.key_count + added.total,
    tag_codes = ARRAY(
      SELECT code FROM unnest(keychain.tag_codes || added.codes) AS code ORDER BY code COLLATE "C")
  FROM (
    SELECT changed.keychain_id, count(*) AS total,
      coalesce(array_agg(tags.code) FILTER (WHERE tags.code IS NOT NULL), '{}') AS codes
    FROM unnest(keychain_ids, tag_ids) AS changed(keychain_id, tag_id)
    LEFT JOIN tags ON tags.id = changed.tag_id
    GROUP BY changed.keychain_id
  ) AS added
  WHERE keychain.id = added.keychain_id
$$;--> statement-breakpoint
CREATE OR REPLACE FUNCTION keychain_summaries_remove(keychain_ids uuid[], tag_ids uuid[]) RETURNS void
LANGUAGE sql AS $$
  UPDATE keychains AS keychain
  SET key_count = keychain.key_count - gone.total,
    tag_codes = ARRAY(
      SELECT code FROM unnest(keychain.tag_codes) AS code WHERE code <> ALL (gone.codes)
      ORDER BY code COLLATE "C")
  FROM (
    SELECT changed.keychain_id, count(*) AS total,
      coalesce(array_agg(tags.code) FILTER (WHERE tags.code IS NOT NULL), '{}') AS codes
    FROM unnest(keychain_ids, tag_ids) AS changed(keychain_id, tag_id)
    LEFT JOIN tags ON tags.id = changed.tag_id
    GROUP BY changed.keychain_id
  ) AS gone
  WHERE keychain.id = gone.keychain_id
$$;--> statement-breakpoint
UPDATE keychains SET tag_codes = ARRAY(SELECT code FROM unnest(tag_codes) AS code ORDER BY code COLLATE "C")
WHERE cardinality(tag_codes) > 1;
