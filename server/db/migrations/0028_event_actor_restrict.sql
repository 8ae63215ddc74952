-- An entry's author is part of its chain hash (`organization_event_digest`): nulling `actor_id` when a user row
-- is deleted would break the chain with nothing tampered with. Users are disabled, never deleted; a deletion of
-- one who did something in a ledger is now refused instead.
ALTER TABLE "organization_events" DROP CONSTRAINT "organization_events_actor_id_users_id_fk";--> statement-breakpoint
ALTER TABLE "organization_events" ADD CONSTRAINT "organization_events_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;
