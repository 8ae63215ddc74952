/**
 * The cart's query key, on its own: screens that change the cart without showing it (a tag's replacement
 * order) refresh it without loading the cart's endpoint table.
 */
export const cartKey = (organizationId: string) => ['cart', organizationId] as const
