-- Appending to an organization's event log in one function, so that the previous entry's hash is read after
-- the counter row is locked. In one statement (0012's way) the read used the statement's snapshot, taken
-- before it waited for the lock: an entry committed meanwhile by another transaction was not seen, and the new
-- entry chained to '' (a broken chain with nothing tampered). Each query of a VOLATILE PL/pgSQL function takes
-- a fresh snapshot under READ COMMITTED, so the read below sees every entry committed before the lock was ours.
CREATE FUNCTION append_organization_event(
  event_organization_id uuid, event_kind text, event_actor_id uuid, event_client_time timestamptz,
  event_server_time timestamptz, event_from_queue boolean, event_keychain_ids uuid[], event_tag_ids uuid[],
  event_transfer_ids uuid[], event_payload jsonb
) RETURNS bigint LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  next_seq bigint;
  previous text;
BEGIN
  INSERT INTO organization_event_counters AS counters (organization_id, last_seq)
  VALUES (event_organization_id, 1)
  ON CONFLICT (organization_id) DO UPDATE SET last_seq = counters.last_seq + 1
  RETURNING counters.last_seq INTO next_seq;
  SELECT events.hash INTO previous FROM organization_events AS events
  WHERE events.organization_id = event_organization_id AND events.seq = next_seq - 1;
  INSERT INTO organization_events
    (organization_id, seq, kind, actor_id, client_time, server_time, from_queue,
     keychain_ids, tag_ids, transfer_ids, payload, hash)
  VALUES (event_organization_id, next_seq, event_kind, event_actor_id, event_client_time, event_server_time,
    event_from_queue, event_keychain_ids, event_tag_ids, event_transfer_ids, event_payload,
    organization_event_digest(coalesce(previous, ''), event_organization_id, next_seq, event_kind,
      event_actor_id, event_client_time, event_server_time, event_from_queue, event_keychain_ids,
      event_tag_ids, event_transfer_ids, event_payload));
  RETURN next_seq;
END
$$;
