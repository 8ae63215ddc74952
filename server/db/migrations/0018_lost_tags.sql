CREATE TABLE "tag_retired_public_ids" (
	"public_id" text PRIMARY KEY NOT NULL,
	"tag_id" uuid NOT NULL,
	"retired_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "tags" ADD COLUMN "lost_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tags" ADD COLUMN "lost_by_id" uuid;--> statement-breakpoint
ALTER TABLE "tags" ADD COLUMN "lost_notice_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "tag_retired_public_ids" ADD CONSTRAINT "tag_retired_public_ids_tag_id_tags_id_fk" FOREIGN KEY ("tag_id") REFERENCES "public"."tags"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tags" ADD CONSTRAINT "tags_lost_by_id_users_id_fk" FOREIGN KEY ("lost_by_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;