-- Scans join their organization's ledger in batches (issue 14). Appending each scan in its own statement
-- locked the organization's counter row until that statement committed, so concurrent scans of one
-- organization queued on it. A resolved scan now only names the ledger it belongs to (`ledger_organization_id`,
-- with the keychain its tag was on); `append_pending_scans` chains a batch of them under one lock of the counter
-- row and clears their marks in the same transaction, so each is appended exactly once.
ALTER TABLE "scans" ADD COLUMN "ledger_organization_id" uuid;--> statement-breakpoint
ALTER TABLE "scans" ADD COLUMN "ledger_keychain_id" uuid;--> statement-breakpoint
ALTER TABLE "scans" ADD CONSTRAINT "scans_ledger_organization_id_organizations_id_fk" FOREIGN KEY ("ledger_organization_id") REFERENCES "public"."organizations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "scans_ledger_pending_idx" ON "scans" USING btree ("ledger_organization_id","server_time","id") WHERE "scans"."ledger_organization_id" is not null;--> statement-breakpoint
-- Takes up to `batch_size` pending scans of the organization, oldest first, skipping those another batch holds;
-- numbers them after the last entry under one lock of the counter row (taken after the scans' rows, as every
-- append takes it last) and chains each to the one before, the first to the hash read once the lock is ours
-- (a fresh snapshot per statement: see 0015). Returns how many it appended.
CREATE FUNCTION append_pending_scans(ledger_organization uuid, batch_size integer) RETURNS integer
LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  picked uuid[];
  last_seq_after bigint;
  next_seq bigint;
  previous text;
  scan record;
BEGIN
  SELECT array_agg(pending.id) INTO picked FROM (
    SELECT scans.id FROM scans
    WHERE scans.ledger_organization_id = ledger_organization
    ORDER BY scans.server_time, scans.id
    LIMIT batch_size
    FOR UPDATE SKIP LOCKED
  ) AS pending;
  IF picked IS NULL THEN
    RETURN 0;
  END IF;
  INSERT INTO organization_event_counters AS counters (organization_id, last_seq)
  VALUES (ledger_organization, cardinality(picked))
  ON CONFLICT (organization_id) DO UPDATE SET last_seq = counters.last_seq + cardinality(picked)
  RETURNING counters.last_seq INTO last_seq_after;
  next_seq := last_seq_after - cardinality(picked);
  SELECT events.hash INTO previous FROM organization_events AS events
  WHERE events.organization_id = ledger_organization AND events.seq = next_seq;
  previous := coalesce(previous, '');
  FOR scan IN
    SELECT scans.id, scans.user_id, scans.client_time, scans.server_time, scans.from_queue, scans.tag_id,
      scans.ledger_keychain_id
    FROM scans WHERE scans.id = ANY(picked) ORDER BY scans.server_time, scans.id
  LOOP
    next_seq := next_seq + 1;
    previous := organization_event_digest(previous, ledger_organization, next_seq, 'scan.recorded',
      scan.user_id, scan.client_time, scan.server_time, scan.from_queue,
      CASE WHEN scan.ledger_keychain_id IS NULL THEN '{}'::uuid[] ELSE ARRAY[scan.ledger_keychain_id] END,
      CASE WHEN scan.tag_id IS NULL THEN '{}'::uuid[] ELSE ARRAY[scan.tag_id] END,
      '{}'::uuid[], jsonb_build_object('scanId', scan.id));
    INSERT INTO organization_events
      (organization_id, seq, kind, actor_id, client_time, server_time, from_queue,
       keychain_ids, tag_ids, transfer_ids, payload, hash)
    VALUES (ledger_organization, next_seq, 'scan.recorded', scan.user_id, scan.client_time, scan.server_time,
      scan.from_queue,
      CASE WHEN scan.ledger_keychain_id IS NULL THEN '{}'::uuid[] ELSE ARRAY[scan.ledger_keychain_id] END,
      CASE WHEN scan.tag_id IS NULL THEN '{}'::uuid[] ELSE ARRAY[scan.tag_id] END,
      '{}'::uuid[], jsonb_build_object('scanId', scan.id), previous);
  END LOOP;
  UPDATE scans SET ledger_organization_id = NULL, ledger_keychain_id = NULL WHERE scans.id = ANY(picked);
  RETURN cardinality(picked);
END
$$;
--> statement-breakpoint
-- Keychain name searches read the trigram index's entries only (issue 14): with `fastupdate` new entries wait in
-- a pending list that every search reads whole until a vacuum merges it, and PGlite runs no autovacuum.
ALTER INDEX "keychains_name_trgm_idx" SET (fastupdate = off);--> statement-breakpoint
SELECT gin_clean_pending_list('keychains_name_trgm_idx'::regclass);
