CREATE INDEX "organization_events_keychains_idx" ON "organization_events" USING gin ("keychain_ids");--> statement-breakpoint
CREATE INDEX "organization_events_tags_idx" ON "organization_events" USING gin ("tag_ids");--> statement-breakpoint
CREATE INDEX "organization_events_actor_idx" ON "organization_events" USING btree ("organization_id","actor_id","seq");--> statement-breakpoint
CREATE INDEX "organization_events_time_idx" ON "organization_events" USING btree ("organization_id","server_time");--> statement-breakpoint
CREATE INDEX "scans_tag_time_idx" ON "scans" USING btree ("tag_id","server_time");--> statement-breakpoint
CREATE INDEX "transfers_out_due_idx" ON "transfers" USING btree ("organization_id","ends_at","id") WHERE "transfers"."status" = 'TRANSFERRED';