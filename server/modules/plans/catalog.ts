/** The ids of the plans seeded by migration `0004_plans.sql` (stable: carts, orders and subscriptions hold them). */
export const PLAN_IDS = {
  essentielMonthly: 'f1a00000-0000-4000-8000-000000000101',
  essentielYearly: 'f1a00000-0000-4000-8000-000000000102',
  proMonthly: 'f1a00000-0000-4000-8000-000000000201',
  proYearly: 'f1a00000-0000-4000-8000-000000000202',
  entrepriseMonthly: 'f1a00000-0000-4000-8000-000000000301',
  entrepriseYearly: 'f1a00000-0000-4000-8000-000000000302',
} as const
