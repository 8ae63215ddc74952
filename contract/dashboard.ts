import * as v from 'valibot'
import { DashboardSchema } from './transfers.ts'

/*
 * What the dashboard says beside its counts (issue 23): this month's transfer allowance, a new organization's
 * setup checklist, the caller's own keychains; and its two charts (`GET /stats/dashboard/charts`), fetched after
 * the counts.
 */

/** The transfers authorized this calendar month against the plan's monthly allowance (as on the plans page). */
const DashboardAllowanceSchema = v.object({
  used: v.number(),
  limit: v.number(),
  /** The first instant of next month in the organization's time zone (ISO). */
  renewsAt: v.string(),
})
export type DashboardAllowance = v.InferOutput<typeof DashboardAllowanceSchema>

/** A new organization's first steps, each true once done. */
const DashboardSetupSchema = v.object({
  keychain: v.boolean(),
  /** Tags exist, or an order of tags was paid. */
  tags: v.boolean(),
  /** Someone besides the first member belongs to it or was invited. */
  member: v.boolean(),
  /** A plan was chosen once (in force or not). */
  plan: v.boolean(),
})
export type DashboardSetup = v.InferOutput<typeof DashboardSetupSchema>

/** How many of the caller's own keychains the dashboard lists; `total` counts them all. */
export const DASHBOARD_MINE_SHOWN = 10

/** A keychain the caller holds (its custodian); `dueDate` when it is out to them on a transfer. */
const HeldKeychainSchema = v.object({
  id: v.string(),
  name: v.string(),
  transferId: v.nullable(v.string()),
  /** The transfer's to-date (`YYYY-MM-DD`), the day it is due back. */
  dueDate: v.nullable(v.string()),
})

const DashboardMineSchema = v.object({
  total: v.number(),
  /** Due first (earliest due date), then by name; `DASHBOARD_MINE_SHOWN` at most. */
  keychains: v.array(HeldKeychainSchema),
})
export type DashboardMine = v.InferOutput<typeof DashboardMineSchema>

/**
 * Each keychain once, by the first that applies: `late` (out past its to-date and grace), `out` (picked up),
 * `scheduled` (a transfer not picked up yet), `held` (a custodian), `noHolder`.
 */
export const KEYCHAIN_CHART_STATUSES = ['noHolder', 'held', 'scheduled', 'out', 'late'] as const
export type KeychainChartStatus = (typeof KEYCHAIN_CHART_STATUSES)[number]

/** Weeks in the transfers chart, the current one last. */
export const DASHBOARD_CHART_WEEKS = 12

export const DashboardChartsSchema = v.object({
  keychainsByStatus: v.object({
    noHolder: v.number(),
    held: v.number(),
    scheduled: v.number(),
    out: v.number(),
    late: v.number(),
  }),
  /**
   * Transfers authorized each week (Monday to Sunday in the organization's time zone), oldest first, as the
   * allowance counts them (cancelled ones given back left out).
   */
  transfersPerWeek: v.array(v.object({ week: v.string(), count: v.number() })),
})
export type DashboardCharts = v.InferOutput<typeof DashboardChartsSchema>

const organizationFigures = DashboardSchema.entries.organization.wrapped

/**
 * `GET /stats/dashboard`: the counts of `DashboardSchema`, and for the organization (issue 23) the allowance
 * (null without a plan in force), the setup checklist and the caller's own keychains — optional, since a
 * dashboard mirrored offline before them lacks them.
 */
export const DashboardViewSchema = v.object({
  ...DashboardSchema.entries,
  organization: v.nullable(
    v.object({
      ...organizationFigures.entries,
      allowance: v.optional(v.nullable(DashboardAllowanceSchema)),
      setup: v.optional(DashboardSetupSchema),
      mine: v.optional(DashboardMineSchema),
    }),
  ),
})
export type DashboardView = v.InferOutput<typeof DashboardViewSchema>
export type DashboardOrganization = NonNullable<DashboardView['organization']>
