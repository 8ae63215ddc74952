-- Issue 23, keychain lists that answer at a glance, and soft deletion.
--
-- Natural order. `sort_name` is the name folded by a fixed table (ASCII and Latin-1 letters to lower case
-- without accents; nothing that depends on the database's locale, ICU or collation: PGlite has none) with
-- every run of digits padded to 12 places ("bureau 000000000002" before "bureau 000000000018"); the column's
-- collation is "C" (bytes), so PGlite and PostgreSQL give the same order. A trigger computes it on every write of
-- the name, whoever writes (the API, the CSV import, the seed, the benchmarks' bulk inserts).
CREATE FUNCTION keychain_sort_key(value text) RETURNS text LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
  folded text := translate(value,
    'ABCDEFGHIJKLMNOPQRSTUVWXYZÀÁÂÃÄÅàáâãäåÆæÇçÈÉÊËèéêëÌÍÎÏìíîïÑñÒÓÔÕÖØòóôõöøŒœÙÚÛÜùúûüÝýÿŸ',
    'abcdefghijklmnopqrstuvwxyzaaaaaaaaaaaaaacceeeeeeeeiiiiiiiinnoooooooooooooouuuuuuuuyyyy');
  result text := '';
  part text[];
BEGIN
  FOR part IN SELECT regexp_matches(folded, '([^0-9]*)([0-9]*)', 'g') LOOP
    result := result || part[1] || CASE
      WHEN part[2] = '' THEN ''
      WHEN length(part[2]) >= 12 THEN part[2]
      ELSE lpad(part[2], 12, '0') END;
  END LOOP;
  RETURN result;
END
$$;--> statement-breakpoint
-- "First Last", or the e-mail when the account has no name: as the app shows a person.
CREATE FUNCTION keychain_holder_key(holder uuid) RETURNS text LANGUAGE sql STABLE AS $$
  SELECT coalesce(
    (SELECT '1' || keychain_sort_key(coalesce(nullif(trim(first_name || ' ' || last_name), ''), email))
      FROM users WHERE id = holder),
    '2')
$$;--> statement-breakpoint
ALTER TABLE "keychains" ADD COLUMN "sort_name" text COLLATE "C" DEFAULT '' NOT NULL;--> statement-breakpoint
-- The holder's natural key after '1', or '2' for nobody: held keychains first, then the free ones.
ALTER TABLE "keychains" ADD COLUMN "holder_sort" text COLLATE "C" DEFAULT '2' NOT NULL;--> statement-breakpoint
-- The transfer that concerns the keychain now, kept by a trigger on transfers: the one out (TRANSFERRED), else
-- the SCHEDULED one ending last (a SCHEDULED one is expired once its end has passed: read with the clock).
ALTER TABLE "keychains" ADD COLUMN "transfer_status" text;--> statement-breakpoint
ALTER TABLE "keychains" ADD COLUMN "transfer_starts_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "keychains" ADD COLUMN "transfer_ends_at" timestamp with time zone;--> statement-breakpoint
-- Soft deletion: the row, its keys and custody log stay; lists, search, scans and the mirror skip it.
ALTER TABLE "keychains" ADD COLUMN "deleted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "keychains" ADD COLUMN "deleted_by_id" uuid REFERENCES "users"("id") ON DELETE SET NULL;--> statement-breakpoint
-- A deleted keychain's TAG keys let their tags go (free, as after a deletion) and remember them here; a
-- restore puts them back when they are still free.
ALTER TABLE "keys" ADD COLUMN "parked_tag_id" uuid REFERENCES "tags"("id");--> statement-breakpoint
ALTER TABLE "keys" DROP CONSTRAINT "keys_tag_iff_type_tag";--> statement-breakpoint
ALTER TABLE "keys" ADD CONSTRAINT "keys_tag_iff_type_tag"
  CHECK (("type" = 'TAG') = ("tag_id" IS NOT NULL OR "parked_tag_id" IS NOT NULL));--> statement-breakpoint
ALTER TABLE "keys" ADD CONSTRAINT "keys_tag_or_parked" CHECK ("tag_id" IS NULL OR "parked_tag_id" IS NULL);--> statement-breakpoint
-- The dashboard's count leaves deleted keychains out: a soft deletion takes one off (and a restore adds it back)
-- in the same transaction, so a later hard deletion (the organization's) counts only those not deleted.
CREATE OR REPLACE FUNCTION organization_counters_keychains_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE organization_counters AS counters SET keychains = counters.keychains - gone.total
  FROM (SELECT organization_id, count(*) AS total FROM deleted WHERE deleted_at IS NULL GROUP BY organization_id) AS gone
  WHERE counters.organization_id = gone.organization_id;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE FUNCTION keychains_sort_keys() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.sort_name := keychain_sort_key(NEW.name);
  NEW.holder_sort := keychain_holder_key(NEW.custodian_id);
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER keychains_sort_keys BEFORE INSERT OR UPDATE OF name, custodian_id ON keychains
  FOR EACH ROW EXECUTE FUNCTION keychains_sort_keys();--> statement-breakpoint
CREATE FUNCTION keychains_holder_renamed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE keychains SET holder_sort = keychain_holder_key(NEW.id) WHERE custodian_id = NEW.id;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER users_holder_renamed AFTER UPDATE OF first_name, last_name, email ON users
  FOR EACH ROW WHEN ((OLD.first_name, OLD.last_name, OLD.email) IS DISTINCT FROM (NEW.first_name, NEW.last_name, NEW.email))
  EXECUTE FUNCTION keychains_holder_renamed();--> statement-breakpoint
CREATE FUNCTION keychain_transfer_refresh(keychain uuid) RETURNS void LANGUAGE sql AS $$
  UPDATE keychains SET (transfer_status, transfer_starts_at, transfer_ends_at) = (
    SELECT status, starts_at, ends_at FROM transfers
    WHERE keychain_id = keychain AND status IN ('SCHEDULED', 'TRANSFERRED')
    ORDER BY status = 'TRANSFERRED' DESC, ends_at DESC, id LIMIT 1)
  WHERE id = keychain
$$;--> statement-breakpoint
CREATE FUNCTION keychains_transfer_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM keychain_transfer_refresh(NEW.keychain_id);
  IF TG_OP = 'UPDATE' AND OLD.keychain_id <> NEW.keychain_id THEN
    PERFORM keychain_transfer_refresh(OLD.keychain_id);
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER transfers_keychain_state AFTER INSERT OR UPDATE OF status, starts_at, ends_at, keychain_id ON transfers
  FOR EACH ROW EXECUTE FUNCTION keychains_transfer_changed();--> statement-breakpoint
UPDATE keychains SET name = name;--> statement-breakpoint
UPDATE keychains AS keychain SET (transfer_status, transfer_starts_at, transfer_ends_at) = (
  SELECT status, starts_at, ends_at FROM transfers
  WHERE keychain_id = keychain.id AND status IN ('SCHEDULED', 'TRANSFERRED')
  ORDER BY status = 'TRANSFERRED' DESC, ends_at DESC, id LIMIT 1)
WHERE EXISTS (SELECT 1 FROM transfers WHERE keychain_id = keychain.id AND status IN ('SCHEDULED', 'TRANSFERRED'));--> statement-breakpoint
-- The list's orders, each a keyset walk of its own index, deleted keychains left out of all of them.
CREATE INDEX "keychains_organization_sort_idx" ON "keychains" ("organization_id", "sort_name", "id")
  WHERE "deleted_at" IS NULL;--> statement-breakpoint
CREATE INDEX "keychains_organization_holder_idx"
  ON "keychains" ("organization_id", "holder_sort", "sort_name", "id")
  WHERE "deleted_at" IS NULL;--> statement-breakpoint
CREATE INDEX "keychains_organization_changed_idx" ON "keychains" ("organization_id", "updated_at", "id")
  WHERE "deleted_at" IS NULL;--> statement-breakpoint
-- Status filters: the keychains with a transfer (few of the organization), in name order.
CREATE INDEX "keychains_organization_transfer_idx"
  ON "keychains" ("organization_id", "transfer_status", "sort_name", "id")
  WHERE "deleted_at" IS NULL AND "transfer_status" IS NOT NULL;--> statement-breakpoint
-- "No holder": the free ones in name order.
CREATE INDEX "keychains_organization_unheld_idx" ON "keychains" ("organization_id", "sort_name", "id")
  WHERE "deleted_at" IS NULL AND "custodian_id" IS NULL;--> statement-breakpoint
-- The deleted ones, for an admin to restore: newest deletion first.
CREATE INDEX "keychains_organization_deleted_idx" ON "keychains" ("organization_id", "deleted_at", "id")
  WHERE "deleted_at" IS NOT NULL;
