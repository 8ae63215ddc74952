CREATE TABLE "found_report_replies" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"report_id" uuid NOT NULL,
	"author_id" uuid,
	"message" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "found_reports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"tag_id" uuid NOT NULL,
	"keychain_id" uuid,
	"message" text NOT NULL,
	"finder_contact" text NOT NULL,
	"finder_email" text,
	"locale" text NOT NULL,
	"status" text DEFAULT 'NEW' NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"status_changed_at" timestamp with time zone,
	"status_changed_by" uuid
);
--> statement-breakpoint
ALTER TABLE "found_report_replies" ADD CONSTRAINT "found_report_replies_report_id_found_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."found_reports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "found_report_replies" ADD CONSTRAINT "found_report_replies_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "found_reports" ADD CONSTRAINT "found_reports_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "found_reports" ADD CONSTRAINT "found_reports_tag_id_tags_id_fk" FOREIGN KEY ("tag_id") REFERENCES "public"."tags"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "found_reports" ADD CONSTRAINT "found_reports_keychain_id_keychains_id_fk" FOREIGN KEY ("keychain_id") REFERENCES "public"."keychains"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "found_reports" ADD CONSTRAINT "found_reports_status_changed_by_users_id_fk" FOREIGN KEY ("status_changed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "found_report_replies_report_idx" ON "found_report_replies" USING btree ("report_id","created_at");--> statement-breakpoint
CREATE INDEX "found_reports_organization_created_idx" ON "found_reports" USING btree ("organization_id","created_at","id");--> statement-breakpoint
CREATE INDEX "found_reports_organization_status_created_idx" ON "found_reports" USING btree ("organization_id","status","created_at","id");--> statement-breakpoint
CREATE INDEX "found_reports_tag_idx" ON "found_reports" USING btree ("tag_id");