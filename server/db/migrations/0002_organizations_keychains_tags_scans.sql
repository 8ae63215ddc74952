CREATE TABLE "custody_log" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "custody_log_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"keychain_id" uuid NOT NULL,
	"by_user_id" uuid,
	"from_user_id" uuid,
	"to_user_id" uuid,
	"at" timestamp with time zone NOT NULL,
	"reason" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "idempotency_keys" (
	"user_id" uuid NOT NULL,
	"key" uuid NOT NULL,
	"request" text NOT NULL,
	"request_hash" text NOT NULL,
	"status" integer NOT NULL,
	"response_body" jsonb,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "idempotency_keys_user_id_key_pk" PRIMARY KEY("user_id","key")
);
--> statement-breakpoint
CREATE TABLE "keychains" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"name" text NOT NULL,
	"custodian_id" uuid,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "keys" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "keys_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"keychain_id" uuid NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"tag_id" uuid,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "keys_tag_id_unique" UNIQUE("tag_id"),
	CONSTRAINT "keys_tag_iff_type_tag" CHECK (("keys"."type" = 'TAG') = ("keys"."tag_id" is not null))
);
--> statement-breakpoint
CREATE TABLE "scans" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"organization_id" uuid,
	"value" text NOT NULL,
	"result" text NOT NULL,
	"tag_id" uuid,
	"client_time" timestamp with time zone,
	"server_time" timestamp with time zone NOT NULL,
	"from_queue" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tags" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"public_id" text NOT NULL,
	"organization_id" uuid NOT NULL,
	"alpha_code" text NOT NULL,
	"number" integer NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"foreground_color" text NOT NULL,
	"background_color" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "tags_public_id_unique" UNIQUE("public_id"),
	CONSTRAINT "tags_organization_code_unique" UNIQUE("organization_id","code"),
	CONSTRAINT "tags_code_upper" CHECK ("tags"."code" = upper("tags"."code"))
);
--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "time_zone" text DEFAULT 'Europe/Paris' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "signed_in_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "custody_log" ADD CONSTRAINT "custody_log_keychain_id_keychains_id_fk" FOREIGN KEY ("keychain_id") REFERENCES "public"."keychains"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "custody_log" ADD CONSTRAINT "custody_log_by_user_id_users_id_fk" FOREIGN KEY ("by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "custody_log" ADD CONSTRAINT "custody_log_from_user_id_users_id_fk" FOREIGN KEY ("from_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "custody_log" ADD CONSTRAINT "custody_log_to_user_id_users_id_fk" FOREIGN KEY ("to_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "keychains" ADD CONSTRAINT "keychains_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "keychains" ADD CONSTRAINT "keychains_custodian_id_users_id_fk" FOREIGN KEY ("custodian_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "keys" ADD CONSTRAINT "keys_keychain_id_keychains_id_fk" FOREIGN KEY ("keychain_id") REFERENCES "public"."keychains"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "keys" ADD CONSTRAINT "keys_tag_id_tags_id_fk" FOREIGN KEY ("tag_id") REFERENCES "public"."tags"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scans" ADD CONSTRAINT "scans_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scans" ADD CONSTRAINT "scans_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scans" ADD CONSTRAINT "scans_tag_id_tags_id_fk" FOREIGN KEY ("tag_id") REFERENCES "public"."tags"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tags" ADD CONSTRAINT "tags_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "custody_log_keychain_idx" ON "custody_log" USING btree ("keychain_id","seq");--> statement-breakpoint
CREATE INDEX "idempotency_keys_created_idx" ON "idempotency_keys" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "keychains_organization_name_idx" ON "keychains" USING btree ("organization_id",lower("name"),"id");--> statement-breakpoint
CREATE INDEX "keychains_organization_custodian_idx" ON "keychains" USING btree ("organization_id","custodian_id");--> statement-breakpoint
CREATE INDEX "keys_keychain_idx" ON "keys" USING btree ("keychain_id","seq");--> statement-breakpoint
CREATE INDEX "scans_organization_time_idx" ON "scans" USING btree ("organization_id","server_time");