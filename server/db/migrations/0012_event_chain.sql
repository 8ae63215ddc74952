-- Tamper evidence for the organization event log (issue 18): each event's hash covers the previous event's
-- hash and its own fields, so editing or deleting a row breaks the chain from there on.
ALTER TABLE "organization_events" ADD COLUMN "hash" text;--> statement-breakpoint
CREATE FUNCTION organization_event_digest(
  prev text, organization_id uuid, seq bigint, kind text, actor_id uuid, client_time timestamptz,
  server_time timestamptz, from_queue boolean, keychain_ids uuid[], tag_ids uuid[], transfer_ids uuid[],
  payload jsonb
) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT encode(sha256(convert_to(concat_ws('|',
    prev, organization_id::text, seq::text, kind, coalesce(actor_id::text, ''),
    coalesce(extract(epoch FROM client_time)::text, ''), extract(epoch FROM server_time)::text,
    from_queue::text, keychain_ids::text, tag_ids::text, transfer_ids::text, payload::text
  ), 'UTF8')), 'hex')
$$;--> statement-breakpoint
DO $$
DECLARE
  event record;
  previous text := '';
  organization uuid := NULL;
BEGIN
  FOR event IN SELECT * FROM organization_events ORDER BY organization_id, seq LOOP
    IF organization IS DISTINCT FROM event.organization_id THEN
      previous := '';
      organization := event.organization_id;
    END IF;
    previous := organization_event_digest(previous, event.organization_id, event.seq, event.kind,
      event.actor_id, event.client_time, event.server_time, event.from_queue, event.keychain_ids,
      event.tag_ids, event.transfer_ids, event.payload);
    UPDATE organization_events SET hash = previous
      WHERE organization_id = event.organization_id AND seq = event.seq;
  END LOOP;
END
$$;--> statement-breakpoint
ALTER TABLE "organization_events" ALTER COLUMN "hash" SET NOT NULL;
