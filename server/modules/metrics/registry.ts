/**
 * The process's request metrics, kept in nested Maps (method → route pattern → status) of fixed-size counters:
 * recording a request looks up three keys and bumps numbers, with no allocation once a series exists.
 * Rendered in the Prometheus text format (version 0.0.4) when scraped.
 */

/** Upper bounds of the latency buckets, in seconds (an API answer is expected well under 100 ms). */
export const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] as const

type Series = {
  count: number
  sumSeconds: number
  /** Cumulated at render time: each slot counts the requests of its own bucket only. */
  buckets: Float64Array
  replays: number
}

export type Gauge = {
  name: string
  help: string
  samples: Array<{ labels: Record<string, string>; value: number }>
}

export class RequestMetrics {
  readonly #series = new Map<string, Map<string, Map<number, Series>>>()

  /** One answered request: its method, route pattern (`/api/keychains/:id`), status and duration. */
  observe(method: string, route: string, status: number, seconds: number, replayed: boolean): void {
    let byRoute = this.#series.get(method)
    if (!byRoute) {
      byRoute = new Map()
      this.#series.set(method, byRoute)
    }
    let byStatus = byRoute.get(route)
    if (!byStatus) {
      byStatus = new Map()
      byRoute.set(route, byStatus)
    }
    let series = byStatus.get(status)
    if (!series) {
      series = { count: 0, sumSeconds: 0, buckets: new Float64Array(LATENCY_BUCKETS.length + 1), replays: 0 }
      byStatus.set(status, series)
    }
    series.count += 1
    series.sumSeconds += seconds
    let slot = 0
    while (slot < LATENCY_BUCKETS.length && seconds > (LATENCY_BUCKETS[slot] as number)) slot += 1
    series.buckets[slot] = (series.buckets[slot] as number) + 1
    if (replayed) series.replays += 1
  }

  /** The text a Prometheus server scrapes: the request series, then `gauges`. */
  render(gauges: Gauge[] = []): string {
    const lines: string[] = [
      '# HELP trousseau_http_requests_total Requests answered, by method, route pattern and status.',
      '# TYPE trousseau_http_requests_total counter',
    ]
    const histogram: string[] = [
      '# HELP trousseau_http_request_duration_seconds Time from the request to its answer, by method, route pattern and status.',
      '# TYPE trousseau_http_request_duration_seconds histogram',
    ]
    const replays: string[] = [
      '# HELP trousseau_idempotent_replays_total Requests answered from the stored answer of an earlier request with the same Idempotency-Key (an offline outbox sending again).',
      '# TYPE trousseau_idempotent_replays_total counter',
    ]
    for (const [method, byRoute] of this.#series) {
      for (const [route, byStatus] of byRoute) {
        let routeReplays = 0
        for (const [status, series] of byStatus) {
          const labels = `method="${method}",route="${escapeLabel(route)}",status="${status}"`
          lines.push(`trousseau_http_requests_total{${labels}} ${series.count}`)
          let cumulated = 0
          LATENCY_BUCKETS.forEach((bound, index) => {
            cumulated += series.buckets[index] as number
            histogram.push(
              `trousseau_http_request_duration_seconds_bucket{${labels},le="${bound}"} ${cumulated}`,
            )
          })
          histogram.push(
            `trousseau_http_request_duration_seconds_bucket{${labels},le="+Inf"} ${series.count}`,
          )
          histogram.push(`trousseau_http_request_duration_seconds_sum{${labels}} ${series.sumSeconds}`)
          histogram.push(`trousseau_http_request_duration_seconds_count{${labels}} ${series.count}`)
          routeReplays += series.replays
        }
        if (routeReplays > 0) {
          replays.push(
            `trousseau_idempotent_replays_total{method="${method}",route="${escapeLabel(route)}"} ${routeReplays}`,
          )
        }
      }
    }
    const gaugeLines = gauges.flatMap((gauge) => [
      `# HELP ${gauge.name} ${gauge.help}`,
      `# TYPE ${gauge.name} gauge`,
      ...gauge.samples.map((sample) => `${gauge.name}${labelText(sample.labels)} ${sample.value}`),
    ])
    return `${[...lines, ...histogram, ...replays, ...gaugeLines].join('\n')}\n`
  }
}

function labelText(labels: Record<string, string>): string {
  const entries = Object.entries(labels)
  if (entries.length === 0) return ''
  return `{${entries.map(([name, value]) => `${name}="${escapeLabel(value)}"`).join(',')}}`
}

/** Label values escape backslashes, double quotes and line feeds (the text format's rule). */
export function escapeLabel(value: string): string {
  return value.replace(/[\\"\n]/g, (char) => (char === '\n' ? '\\n' : `\\${char}`))
}
