CREATE TABLE "hooks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"place_id" uuid NOT NULL,
	"code" text NOT NULL,
	"position" integer NOT NULL,
	"public_id" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "hooks_public_id_unique" UNIQUE("public_id"),
	CONSTRAINT "hooks_place_code_unique" UNIQUE("place_id","code")
);
--> statement-breakpoint
CREATE TABLE "places" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"parent_id" uuid,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"depth" integer DEFAULT 0 NOT NULL,
	"public_id" text,
	"stocktake_every" text,
	"stocktake_due_on" date,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "places_public_id_unique" UNIQUE("public_id")
);
--> statement-breakpoint
CREATE TABLE "stocktake_devices" (
	"stocktake_id" uuid NOT NULL,
	"device_id" text NOT NULL,
	"user_id" uuid,
	"made" integer DEFAULT 0 NOT NULL,
	"received" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "stocktake_devices_stocktake_id_device_id_pk" PRIMARY KEY("stocktake_id","device_id")
);
--> statement-breakpoint
CREATE TABLE "stocktake_items" (
	"stocktake_id" uuid NOT NULL,
	"keychain_id" uuid NOT NULL,
	"expected_hook_id" uuid,
	"state" text DEFAULT 'PENDING' NOT NULL,
	"found_hook_id" uuid,
	"found_at" timestamp with time zone,
	"found_by_id" uuid,
	CONSTRAINT "stocktake_items_stocktake_id_keychain_id_pk" PRIMARY KEY("stocktake_id","keychain_id")
);
--> statement-breakpoint
CREATE TABLE "stocktake_scans" (
	"id" uuid PRIMARY KEY NOT NULL,
	"stocktake_id" uuid NOT NULL,
	"seq" integer NOT NULL,
	"value" text NOT NULL,
	"hook_id" uuid,
	"keychain_id" uuid,
	"outcome" text NOT NULL,
	"answer" jsonb NOT NULL,
	"scanned_by_id" uuid,
	"device_id" text NOT NULL,
	"device_seq" integer NOT NULL,
	"client_time" timestamp with time zone,
	"received_at" timestamp with time zone NOT NULL,
	"late" boolean DEFAULT false NOT NULL,
	CONSTRAINT "stocktake_scans_device_seq_unique" UNIQUE("stocktake_id","device_id","device_seq")
);
--> statement-breakpoint
CREATE TABLE "stocktakes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"place_id" uuid,
	"status" text DEFAULT 'OPEN' NOT NULL,
	"started_by_id" uuid,
	"started_at" timestamp with time zone NOT NULL,
	"closed_by_id" uuid,
	"closed_at" timestamp with time zone,
	"scan_count" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "keychains" ADD COLUMN "home_hook_id" uuid;
--> statement-breakpoint
ALTER TABLE "keychains" ADD COLUMN "hook_id" uuid;
--> statement-breakpoint
ALTER TABLE "keychains" ADD COLUMN "hook_seen_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "keychains" ADD COLUMN "hook_seen_by_id" uuid;
--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "stocktake_role" text DEFAULT 'MEMBER' NOT NULL;
--> statement-breakpoint
ALTER TABLE "hooks" ADD CONSTRAINT "hooks_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "hooks" ADD CONSTRAINT "hooks_place_id_places_id_fk" FOREIGN KEY ("place_id") REFERENCES "public"."places"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "places" ADD CONSTRAINT "places_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "places" ADD CONSTRAINT "places_parent_id_places_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."places"("id") ON DELETE restrict ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "stocktake_devices" ADD CONSTRAINT "stocktake_devices_stocktake_id_stocktakes_id_fk" FOREIGN KEY ("stocktake_id") REFERENCES "public"."stocktakes"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "stocktake_devices" ADD CONSTRAINT "stocktake_devices_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "stocktake_items" ADD CONSTRAINT "stocktake_items_stocktake_id_stocktakes_id_fk" FOREIGN KEY ("stocktake_id") REFERENCES "public"."stocktakes"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "stocktake_items" ADD CONSTRAINT "stocktake_items_keychain_id_keychains_id_fk" FOREIGN KEY ("keychain_id") REFERENCES "public"."keychains"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "stocktake_items" ADD CONSTRAINT "stocktake_items_expected_hook_id_hooks_id_fk" FOREIGN KEY ("expected_hook_id") REFERENCES "public"."hooks"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "stocktake_items" ADD CONSTRAINT "stocktake_items_found_hook_id_hooks_id_fk" FOREIGN KEY ("found_hook_id") REFERENCES "public"."hooks"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "stocktake_items" ADD CONSTRAINT "stocktake_items_found_by_id_users_id_fk" FOREIGN KEY ("found_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "stocktake_scans" ADD CONSTRAINT "stocktake_scans_stocktake_id_stocktakes_id_fk" FOREIGN KEY ("stocktake_id") REFERENCES "public"."stocktakes"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "stocktake_scans" ADD CONSTRAINT "stocktake_scans_hook_id_hooks_id_fk" FOREIGN KEY ("hook_id") REFERENCES "public"."hooks"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "stocktake_scans" ADD CONSTRAINT "stocktake_scans_keychain_id_keychains_id_fk" FOREIGN KEY ("keychain_id") REFERENCES "public"."keychains"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "stocktake_scans" ADD CONSTRAINT "stocktake_scans_scanned_by_id_users_id_fk" FOREIGN KEY ("scanned_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "stocktakes" ADD CONSTRAINT "stocktakes_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "stocktakes" ADD CONSTRAINT "stocktakes_place_id_places_id_fk" FOREIGN KEY ("place_id") REFERENCES "public"."places"("id") ON DELETE restrict ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "stocktakes" ADD CONSTRAINT "stocktakes_started_by_id_users_id_fk" FOREIGN KEY ("started_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "stocktakes" ADD CONSTRAINT "stocktakes_closed_by_id_users_id_fk" FOREIGN KEY ("closed_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "hooks_place_position_idx" ON "hooks" USING btree ("place_id","position");
--> statement-breakpoint
CREATE INDEX "places_organization_parent_idx" ON "places" USING btree ("organization_id","parent_id");
--> statement-breakpoint
CREATE INDEX "places_stocktake_due_idx" ON "places" USING btree ("stocktake_due_on") WHERE "places"."stocktake_due_on" is not null;
--> statement-breakpoint
CREATE UNIQUE INDEX "stocktake_scans_seq_unique" ON "stocktake_scans" USING btree ("stocktake_id","seq");
--> statement-breakpoint
CREATE INDEX "stocktakes_organization_started_idx" ON "stocktakes" USING btree ("organization_id","started_at","id");
--> statement-breakpoint
CREATE UNIQUE INDEX "stocktakes_open_scope_unique" ON "stocktakes" USING btree ("organization_id",coalesce("place_id"::text, '')) WHERE "stocktakes"."status" = 'OPEN';
--> statement-breakpoint
ALTER TABLE "keychains" ADD CONSTRAINT "keychains_home_hook_id_hooks_id_fk" FOREIGN KEY ("home_hook_id") REFERENCES "public"."hooks"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "keychains" ADD CONSTRAINT "keychains_hook_id_hooks_id_fk" FOREIGN KEY ("hook_id") REFERENCES "public"."hooks"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "keychains" ADD CONSTRAINT "keychains_hook_seen_by_id_users_id_fk" FOREIGN KEY ("hook_seen_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "keychains_home_hook_idx" ON "keychains" USING btree ("home_hook_id") WHERE "keychains"."home_hook_id" is not null;
