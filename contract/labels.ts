import * as v from 'valibot'
import { IdSchema } from './common.ts'
import { LABEL_FORMAT_IDS } from './label-layout.ts'
import { TagSchema } from './tags.ts'

/** The most tags one reprint may hold: 48 A4 pages of Avery L7160, a few seconds of rendering. */
export const LABEL_PRINT_MAX = 1000

const LabelFormatSchema = v.picklist(
  LABEL_FORMAT_IDS,
  `Unknown label format: choose one of ${LABEL_FORMAT_IDS.join(', ')}.`,
)

/**
 * Which existing tags to print again: chosen one by one (`ids`), or every tag matching the tags list's filter
 * (`filter`, the list's `q` and `unused`), at most `LABEL_PRINT_MAX` either way.
 */
const LabelSelectionSchema = v.variant(
  'by',
  [
    v.strictObject({
      by: v.literal('ids'),
      ids: v.pipe(
        v.array(IdSchema),
        v.minLength(1, 'Choose at least one tag to print.'),
        v.maxLength(LABEL_PRINT_MAX, `At most ${LABEL_PRINT_MAX} tags can be printed at a time.`),
      ),
    }),
    v.strictObject({
      by: v.literal('filter'),
      unused: v.optional(v.picklist(['true', 'false'])),
      q: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(100))),
    }),
  ],
  'Say which tags to print: by ids or by filter.',
)
export type LabelSelection = v.InferOutput<typeof LabelSelectionSchema>

/** `POST /tag-labels` and `POST /tag-labels/pdf`: reprint existing tags (no new numbers) on a label format. */
export const LabelPrintSchema = v.strictObject({
  format: LabelFormatSchema,
  selection: LabelSelectionSchema,
  /** Write the tag's name under its code (default yes). */
  withName: v.optional(v.boolean(), true),
})
export type LabelPrint = v.InferInput<typeof LabelPrintSchema>

/** One label's content, for the browser's print view (the PDF is drawn on the server from the same). */
const LabelSchema = v.pick(TagSchema, ['id', 'code', 'name', 'url', 'foregroundColor', 'backgroundColor'])
export type Label = v.InferOutput<typeof LabelSchema>

export const LabelSheetSchema = v.object({ format: LabelFormatSchema, labels: v.array(LabelSchema) })
export type LabelSheet = v.InferOutput<typeof LabelSheetSchema>
