import { createFileRoute, useNavigate } from '@tanstack/react-router'
import { RequireOrganization } from '../../../app/RequireOrganization.tsx'
import { ScanResultCard } from '../../../features/scan/ScanResultCard.tsx'
import { ScanScreen } from '../../../features/scan/ScanScreen.tsx'
import { localizedHref } from '../../../lib/paths.ts'

export const Route = createFileRoute('/{-$locale}/app/scan')({
  component: Scan,
})

function Scan() {
  const { locale } = Route.useRouteContext()
  const navigate = useNavigate()
  return (
    <RequireOrganization>
      {() => (
        <ScanScreen
          renderResult={(result) => <ScanResultCard result={result} />}
          onResult={(result) => {
            // A tag on a keychain leads straight to that keychain; anything else stays here to be explained.
            if (result.status === 'resolved' && result.keychain) {
              void navigate({ href: localizedHref(locale, `/app/keychains/${result.keychain.id}`) })
            }
          }}
        />
      )}
    </RequireOrganization>
  )
}
