CREATE TABLE "transfer_receipts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"transfer_id" uuid NOT NULL,
	"pickup_id" uuid NOT NULL,
	"recipient_id" uuid,
	"handed_over_by_id" uuid,
	"details" jsonb NOT NULL,
	"typed_name" text,
	"signature" text,
	"photo" "bytea",
	"locale" text NOT NULL,
	"accepted_at" timestamp with time zone NOT NULL,
	"client_time" timestamp with time zone,
	"server_time" timestamp with time zone NOT NULL,
	"from_queue" boolean DEFAULT false NOT NULL,
	CONSTRAINT "transfer_receipts_transfer_id_unique" UNIQUE("transfer_id"),
	CONSTRAINT "transfer_receipts_accepted" CHECK ("transfer_receipts"."typed_name" is not null or "transfer_receipts"."signature" is not null),
	CONSTRAINT "transfer_receipts_photo_size" CHECK (octet_length("transfer_receipts"."photo") <= 307200)
);
--> statement-breakpoint
ALTER TABLE "transfer_receipts" ADD CONSTRAINT "transfer_receipts_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfer_receipts" ADD CONSTRAINT "transfer_receipts_transfer_id_transfers_id_fk" FOREIGN KEY ("transfer_id") REFERENCES "public"."transfers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfer_receipts" ADD CONSTRAINT "transfer_receipts_pickup_id_transfer_pickups_id_fk" FOREIGN KEY ("pickup_id") REFERENCES "public"."transfer_pickups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfer_receipts" ADD CONSTRAINT "transfer_receipts_recipient_id_users_id_fk" FOREIGN KEY ("recipient_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfer_receipts" ADD CONSTRAINT "transfer_receipts_handed_over_by_id_users_id_fk" FOREIGN KEY ("handed_over_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;