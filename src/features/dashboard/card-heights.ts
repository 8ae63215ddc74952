/*
 * The heights of the dashboard's cards that arrive after its first paint (their code in lazy chunks): their
 * places keep them while loading, so nothing below moves when they arrive.
 */

/** A chart's card. */
export const CHART_CARD_CLASS = 'min-h-72 rounded-xl border border-slate-200 bg-white p-5 shadow-sm'

/** The allowance's card. */
export const ALLOWANCE_CARD_CLASS =
  'flex min-h-36 flex-col gap-3 rounded-xl border border-slate-200 bg-white p-5 shadow-sm'
