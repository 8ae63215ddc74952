CREATE TABLE "transfer_pickups" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"transfer_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"by_user_id" uuid NOT NULL,
	"client_time" timestamp with time zone,
	"server_time" timestamp with time zone NOT NULL,
	"from_queue" boolean DEFAULT false NOT NULL,
	CONSTRAINT "transfer_pickups_transfer_kind_unique" UNIQUE("transfer_id","kind")
);
--> statement-breakpoint
CREATE TABLE "transfers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"keychain_id" uuid NOT NULL,
	"keychain_name" text NOT NULL,
	"recipient_id" uuid NOT NULL,
	"authorized_by_id" uuid,
	"from_date" date NOT NULL,
	"to_date" date NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"status" text NOT NULL,
	"previous_custodian_id" uuid,
	"created_at" timestamp with time zone NOT NULL,
	"picked_up_at" timestamp with time zone,
	"returned_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	CONSTRAINT "transfers_window_order" CHECK ("transfers"."ends_at" > "transfers"."starts_at")
);
--> statement-breakpoint
ALTER TABLE "transfer_pickups" ADD CONSTRAINT "transfer_pickups_transfer_id_transfers_id_fk" FOREIGN KEY ("transfer_id") REFERENCES "public"."transfers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfer_pickups" ADD CONSTRAINT "transfer_pickups_by_user_id_users_id_fk" FOREIGN KEY ("by_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfers" ADD CONSTRAINT "transfers_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfers" ADD CONSTRAINT "transfers_recipient_id_users_id_fk" FOREIGN KEY ("recipient_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfers" ADD CONSTRAINT "transfers_authorized_by_id_users_id_fk" FOREIGN KEY ("authorized_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfers" ADD CONSTRAINT "transfers_previous_custodian_id_users_id_fk" FOREIGN KEY ("previous_custodian_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "transfers_organization_window_idx" ON "transfers" USING btree ("organization_id","starts_at","id");--> statement-breakpoint
CREATE INDEX "transfers_keychain_window_idx" ON "transfers" USING btree ("keychain_id","starts_at","id");--> statement-breakpoint
CREATE INDEX "transfers_recipient_window_idx" ON "transfers" USING btree ("recipient_id","starts_at","id");--> statement-breakpoint
CREATE INDEX "transfers_organization_created_idx" ON "transfers" USING btree ("organization_id","created_at");