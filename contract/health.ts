import * as v from 'valibot'

export const HealthSchema = v.object({
  status: v.picklist(['ok', 'degraded']),
  version: v.string(),
  database: v.object({
    driver: v.picklist(['pglite', 'postgres']),
    state: v.picklist(['up', 'down']),
    latencyMs: v.nullable(v.number()),
  }),
})
export type Health = v.InferOutput<typeof HealthSchema>

/** Liveness: the process answers (no dependency is asked; see `HealthSchema` for readiness). */
export const LivenessSchema = v.object({ status: v.literal('ok'), version: v.string() })
