import { createFileRoute } from '@tanstack/react-router'
import { useProfile } from '../../../api/profile.ts'
import { wakeOutbox } from '../../../app/useFieldSync.ts'
import { SyncPanel } from '../../../offline/SyncPanel.tsx'

export const Route = createFileRoute('/{-$locale}/app/sync')({
  component: Sync,
})

function Sync() {
  const profile = useProfile()
  if (!profile) return null
  return <SyncPanel userId={profile.id} onSendNow={() => wakeOutbox(true)} />
}
