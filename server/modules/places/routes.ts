import type { AppDeps } from '../../deps.ts'
import type { ApiRouter } from '../../http/api-router.ts'

/** `/places`: the organization's places and hooks, and where each keychain lives (`/keychains/{id}/home`…). */
export function placeRoutes(_api: ApiRouter, _deps: AppDeps): void {}
