CREATE TABLE "notice_digest_items" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"dedupe_key" text NOT NULL,
	"subject" text NOT NULL,
	"summary" text NOT NULL,
	"link" text,
	"created_at" timestamp with time zone NOT NULL,
	"sent_at" timestamp with time zone,
	CONSTRAINT "notice_digest_items_dedupe_key_unique" UNIQUE("dedupe_key")
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "notice_digest" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "notice_digest_items" ADD CONSTRAINT "notice_digest_items_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "notice_digest_items_user_idx" ON "notice_digest_items" USING btree ("user_id","sent_at");