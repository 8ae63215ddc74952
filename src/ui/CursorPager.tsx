import { Trans } from '@lingui/react/macro'
import { useState } from 'react'
import { Button } from './Button.tsx'

/**
 * Previous/next through a cursor-paginated list: the cursors seen so far form a stack, the last one is the
 * page shown.
 */
export function useCursorPages() {
  const [cursors, setCursors] = useState<Array<string | null>>([null])
  return {
    cursor: cursors.at(-1) ?? null,
    pager: (nextCursor: string | null) => (
      <div className="flex gap-3">
        {cursors.length > 1 ? (
          <Button variant="secondary" onPress={() => setCursors((all) => all.slice(0, -1))}>
            <Trans>Previous page</Trans>
          </Button>
        ) : null}
        {nextCursor ? (
          <Button variant="secondary" onPress={() => setCursors((all) => [...all, nextCursor])}>
            <Trans>Next page</Trans>
          </Button>
        ) : null}
      </div>
    ),
  }
}
