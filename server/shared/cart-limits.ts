/** A cart holds this many lines at most (one plan and tag batches); a tag replacement counts as one. */
export const MAX_CART_ITEMS = 20
