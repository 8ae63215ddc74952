import { labelEndpoints } from '../../contract/endpoints/labels.ts'
import type { LabelPrint } from '../../contract/labels.ts'
import { API_BASE_URL, ApiError } from '../lib/api.ts'
import { call } from '../lib/call.ts'

/** The labels of a reprint for the browser's print view (the same selection and layout as the PDF). */
export const fetchLabelSheet = (print: LabelPrint) => call(labelEndpoints.sheet, { body: print })

/**
 * Asks the server for the labels' PDF (it is drawn there: no PDF or QR code in the browser's bundles) and hands
 * it to the browser as a download. A refusal keeps the server's code (`label_selection_too_large`…).
 */
export const downloadLabelsPdf = (print: LabelPrint): Promise<void> =>
  downloadPdf('/tag-labels/pdf', print, `tags-${print.format}.pdf`)

/** Posts `body` to a PDF route of the API and saves the answer as `filename`; a refusal keeps the server's code. */
export async function downloadPdf(path: string, body: unknown, filename: string): Promise<void> {
  const response = await fetch(`${API_BASE_URL}${path}`, {
    method: 'POST',
    credentials: 'include',
    headers: { 'Content-Type': 'application/json', Accept: 'application/pdf' },
    body: JSON.stringify(body),
  })
  if (!response.ok) {
    const answer = (await response.json().catch(() => null)) as {
      error?: { code: string; message: string }
    } | null
    throw new ApiError(
      response.status,
      answer?.error?.code ?? 'download_failed',
      answer?.error?.message ?? 'The PDF could not be downloaded.',
    )
  }
  const url = URL.createObjectURL(await response.blob())
  const link = document.createElement('a')
  link.href = url
  link.download = filename
  document.body.append(link)
  link.click()
  link.remove()
  setTimeout(() => URL.revokeObjectURL(url), 1000)
}
