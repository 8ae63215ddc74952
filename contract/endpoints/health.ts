import { HealthSchema, LivenessSchema } from '../health.ts'
import { endpoint } from './endpoint.ts'

/** The probes of a supervisor and a load balancer. */
export const healthEndpoints = {
  live: endpoint({ method: 'get', path: '/health/live', response: LivenessSchema }),
  ready: endpoint({ method: 'get', path: '/health', response: HealthSchema }),
}
