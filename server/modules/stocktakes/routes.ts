import type { AppDeps } from '../../deps.ts'
import type { ApiRouter } from '../../http/api-router.ts'

/** `/stocktakes`: start one on a scope, scan into it from any device, close it, read its report. */
export function stocktakeRoutes(_api: ApiRouter, _deps: AppDeps): void {}
