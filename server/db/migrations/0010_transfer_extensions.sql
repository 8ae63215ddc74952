CREATE TABLE "transfer_extensions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"transfer_id" uuid NOT NULL,
	"requested_by_id" uuid,
	"previous_to_date" date NOT NULL,
	"to_date" date NOT NULL,
	"status" text NOT NULL,
	"client_time" timestamp with time zone,
	"from_queue" boolean DEFAULT false NOT NULL,
	"requested_at" timestamp with time zone NOT NULL,
	"decided_by_id" uuid,
	"decided_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "transfer_extensions" ADD CONSTRAINT "transfer_extensions_transfer_id_transfers_id_fk" FOREIGN KEY ("transfer_id") REFERENCES "public"."transfers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfer_extensions" ADD CONSTRAINT "transfer_extensions_requested_by_id_users_id_fk" FOREIGN KEY ("requested_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "transfer_extensions" ADD CONSTRAINT "transfer_extensions_decided_by_id_users_id_fk" FOREIGN KEY ("decided_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "transfer_extensions_transfer_idx" ON "transfer_extensions" USING btree ("transfer_id","requested_at");--> statement-breakpoint
CREATE UNIQUE INDEX "transfer_extensions_one_pending" ON "transfer_extensions" USING btree ("transfer_id") WHERE "transfer_extensions"."status" = 'PENDING';