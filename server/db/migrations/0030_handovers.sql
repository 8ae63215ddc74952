CREATE TABLE "device_keys" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"name" text NOT NULL,
	"public_key" text NOT NULL,
	"fingerprint" text NOT NULL,
	"registered_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "handovers" (
	"id" text PRIMARY KEY NOT NULL,
	"organization_id" uuid NOT NULL,
	"keychain_id" uuid NOT NULL,
	"keychain_name" text NOT NULL,
	"status" text NOT NULL,
	"reason" text,
	"giver_id" uuid,
	"giver_name" text NOT NULL,
	"giver_device_id" uuid NOT NULL,
	"receiver_id" uuid,
	"receiver_name" text NOT NULL,
	"receiver_device_id" uuid NOT NULL,
	"offer" text NOT NULL,
	"acceptance" text NOT NULL,
	"offered_at" timestamp with time zone NOT NULL,
	"accepted_at" timestamp with time zone NOT NULL,
	"received_at" timestamp with time zone NOT NULL,
	"sent_by_id" uuid,
	"transfer_id" uuid,
	CONSTRAINT "handovers_reason_iff_refused" CHECK (("handovers"."status" = 'REFUSED') = ("handovers"."reason" is not null))
);
--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "handover_receivers" text DEFAULT 'MEMBERS' NOT NULL;--> statement-breakpoint
ALTER TABLE "device_keys" ADD CONSTRAINT "device_keys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "handovers" ADD CONSTRAINT "handovers_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "handovers" ADD CONSTRAINT "handovers_giver_id_users_id_fk" FOREIGN KEY ("giver_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "handovers" ADD CONSTRAINT "handovers_receiver_id_users_id_fk" FOREIGN KEY ("receiver_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "handovers" ADD CONSTRAINT "handovers_sent_by_id_users_id_fk" FOREIGN KEY ("sent_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "device_keys_user_idx" ON "device_keys" USING btree ("user_id","registered_at");--> statement-breakpoint
CREATE INDEX "handovers_organization_received_idx" ON "handovers" USING btree ("organization_id","received_at","id");--> statement-breakpoint
CREATE INDEX "handovers_giver_idx" ON "handovers" USING btree ("giver_id","received_at");--> statement-breakpoint
CREATE INDEX "handovers_receiver_idx" ON "handovers" USING btree ("receiver_id","received_at");--> statement-breakpoint
CREATE INDEX "handovers_giver_device_idx" ON "handovers" USING btree ("giver_device_id");--> statement-breakpoint
CREATE INDEX "handovers_receiver_device_idx" ON "handovers" USING btree ("receiver_device_id");