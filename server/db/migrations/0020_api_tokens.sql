CREATE TABLE "api_tokens" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"prefix" text NOT NULL,
	"secret_hash" text NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"user_id" uuid NOT NULL,
	"organization_id" uuid,
	"role" text,
	"created_at" timestamp with time zone NOT NULL,
	"last_used_at" timestamp with time zone,
	"expires_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "api_tokens_prefix_unique" UNIQUE("prefix"),
	CONSTRAINT "api_tokens_kind" CHECK ("api_tokens"."kind" in ('personal', 'organization')),
	CONSTRAINT "api_tokens_kind_scope" CHECK (("api_tokens"."kind" = 'organization') = ("api_tokens"."organization_id" is not null and "api_tokens"."role" is not null))
);
--> statement-breakpoint
ALTER TABLE "api_tokens" ADD CONSTRAINT "api_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_tokens" ADD CONSTRAINT "api_tokens_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "api_tokens_user_idx" ON "api_tokens" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "api_tokens_organization_idx" ON "api_tokens" USING btree ("organization_id");
