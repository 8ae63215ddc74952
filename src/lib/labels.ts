import type { MessageDescriptor } from '@lingui/core'
import { msg } from '@lingui/core/macro'
import type { OrderStatus } from '../../contract/commerce.ts'
import type { MemberStatus } from '../../contract/organizations.ts'
import type { Role } from '../../contract/permissions.ts'

/** Names of roles and member statuses, shared by every screen that shows them. */
export const ROLE_LABELS: Record<Role, MessageDescriptor> = {
  ADMIN: msg`Administrator`,
  MANAGER: msg`Manager`,
  MEMBER: msg`Member`,
  CONTACT: msg`Contact`,
}

export const STATUS_LABELS: Record<MemberStatus, MessageDescriptor> = {
  INVITED: msg`Invited`,
  ACTIVE: msg`Active`,
  DISABLED: msg`Disabled`,
}

export function personName(person: { firstName: string; lastName: string; email: string }): string {
  const name = `${person.firstName} ${person.lastName}`.trim()
  return name || person.email
}

export const ORDER_STATUS_LABELS: Record<OrderStatus, MessageDescriptor> = {
  CREATED: msg`Awaiting payment`,
  PAID: msg`Paid`,
  EXPIRED: msg`Payment not completed`,
  UNPAID: msg`Payment declined`,
  CONFIRMED: msg`Confirmed`,
  PRODUCING: msg`In production`,
  SHIPPED: msg`Shipped`,
  DELIVERED: msg`Delivered`,
}
