import { activityEndpoints } from './activity.ts'
import { apiTokenEndpoints } from './api-tokens.ts'
import { authEndpoints } from './auth.ts'
import { calendarEndpoints } from './calendar.ts'
import { cartEndpoints } from './cart.ts'
import { dashboardEndpoints } from './dashboard.ts'
import { dashboardChartEndpoints } from './dashboard-charts.ts'
import type { Endpoint } from './endpoint.ts'
import { foundReportEndpoints } from './found-reports.ts'
import { deviceEndpoints, handoverEndpoints } from './handovers.ts'
import { healthEndpoints } from './health.ts'
import { identityEndpoints } from './identity.ts'
import { keychainBulkEndpoints } from './keychain-bulk.ts'
import { keychainImportEndpoints } from './keychain-imports.ts'
import { keychainEndpoints } from './keychains.ts'
import { labelEndpoints } from './labels.ts'
import { memberEndpoints } from './members.ts'
import { noticeEndpoints } from './notices.ts'
import { orderEndpoints } from './orders.ts'
import { organizationEndpoints } from './organizations.ts'
import { paymentEndpoints } from './payments.ts'
import { placeEndpoints } from './places.ts'
import { planEndpoints } from './plans.ts'
import { priceEndpoints } from './prices.ts'
import { profileEndpoints } from './profile.ts'
import { reportEndpoints } from './reports.ts'
import { scanEndpoints } from './scans.ts'
import { stocktakeEndpoints } from './stocktakes.ts'
import { subscriptionEndpoints } from './subscriptions.ts'
import { syncEndpoints } from './sync.ts'
import { tagEndpoints } from './tags.ts'
import { transferEndpoints } from './transfers.ts'
import { webhookEndpoints } from './webhooks.ts'

/** Every endpoint table by name, for the checks that read them all (the browser imports each table it calls). */
export const endpointTables: Record<string, Record<string, Endpoint>> = {
  activityEndpoints,
  apiTokenEndpoints,
  authEndpoints,
  calendarEndpoints,
  cartEndpoints,
  dashboardEndpoints,
  dashboardChartEndpoints,
  deviceEndpoints,
  foundReportEndpoints,
  handoverEndpoints,
  healthEndpoints,
  identityEndpoints,
  keychainBulkEndpoints,
  keychainImportEndpoints,
  keychainEndpoints,
  labelEndpoints,
  memberEndpoints,
  noticeEndpoints,
  orderEndpoints,
  organizationEndpoints,
  paymentEndpoints,
  placeEndpoints,
  planEndpoints,
  priceEndpoints,
  profileEndpoints,
  reportEndpoints,
  scanEndpoints,
  stocktakeEndpoints,
  subscriptionEndpoints,
  syncEndpoints,
  tagEndpoints,
  transferEndpoints,
  webhookEndpoints,
}
