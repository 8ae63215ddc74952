CREATE TABLE "organization_event_counters" (
	"organization_id" uuid PRIMARY KEY NOT NULL,
	"last_seq" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "organization_events" (
	"organization_id" uuid NOT NULL,
	"seq" bigint NOT NULL,
	"kind" text NOT NULL,
	"actor_id" uuid,
	"client_time" timestamp with time zone,
	"server_time" timestamp with time zone NOT NULL,
	"from_queue" boolean DEFAULT false NOT NULL,
	"keychain_ids" uuid[] DEFAULT '{}' NOT NULL,
	"tag_ids" uuid[] DEFAULT '{}' NOT NULL,
	"transfer_ids" uuid[] DEFAULT '{}' NOT NULL,
	"payload" jsonb DEFAULT '{}'::jsonb NOT NULL,
	CONSTRAINT "organization_events_organization_id_seq_pk" PRIMARY KEY("organization_id","seq")
);
--> statement-breakpoint
ALTER TABLE "organization_event_counters" ADD CONSTRAINT "organization_event_counters_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organization_events" ADD CONSTRAINT "organization_events_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "organization_events" ADD CONSTRAINT "organization_events_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;