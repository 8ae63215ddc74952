ALTER TABLE "api_tokens" DROP CONSTRAINT "api_tokens_kind";--> statement-breakpoint
ALTER TABLE "api_tokens" DROP CONSTRAINT "api_tokens_kind_scope";--> statement-breakpoint
ALTER TABLE "memberships" ADD COLUMN "external_id" text;--> statement-breakpoint
ALTER TABLE "memberships" ADD COLUMN "scim_removed_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "memberships_external_id_idx" ON "memberships" USING btree ("organization_id","external_id");--> statement-breakpoint
ALTER TABLE "api_tokens" ADD CONSTRAINT "api_tokens_kind" CHECK ("api_tokens"."kind" in ('personal', 'organization', 'scim'));--> statement-breakpoint
ALTER TABLE "api_tokens" ADD CONSTRAINT "api_tokens_kind_scope" CHECK (("api_tokens"."kind" <> 'personal') = ("api_tokens"."organization_id" is not null and "api_tokens"."role" is not null));