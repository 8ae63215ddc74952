import { Trans } from '@lingui/react/macro'
import { Download } from 'lucide-react'
import { buttonClass } from '../../ui/Button.tsx'

/** Downloads the report as CSV, the whole view. */
export function ExportLink({ href, fileName }: { href: string; fileName: string }) {
  return (
    <a href={href} download={fileName} className={`${buttonClass('secondary')} print:hidden`}>
      <Download aria-hidden className="size-4" />
      <Trans>Export as CSV</Trans>
    </a>
  )
}
