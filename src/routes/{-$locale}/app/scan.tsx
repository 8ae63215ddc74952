import { createFileRoute } from '@tanstack/react-router'
import { ScanResultCard } from '../../../features/scan/ScanResultCard.tsx'
import { ScanScreen } from '../../../features/scan/ScanScreen.tsx'

export const Route = createFileRoute('/{-$locale}/app/scan')({
  component: () => <ScanScreen renderResult={(result) => <ScanResultCard result={result} />} />,
})
