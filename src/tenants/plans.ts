export const PLANS = ['free', 'starter', 'pro', 'business', 'enterprise'] as const;
export type Plan = (typeof PLANS)[number];

export interface PlanRules {
  perMinute: number;
  perDay: number;
  csvExport: boolean;
}

/** The spec's limits; `free` exists so that "Starter or above" gates something. */
export const PLAN_RULES: Record<Plan, PlanRules> = {
  free: { perMinute: 10, perDay: 100, csvExport: false },
  starter: { perMinute: 60, perDay: 1_000, csvExport: true },
  pro: { perMinute: 300, perDay: 50_000, csvExport: true },
  business: { perMinute: 600, perDay: 200_000, csvExport: true },
  // Until an operator sets its own limits, enterprise has business's.
  enterprise: { perMinute: 600, perDay: 200_000, csvExport: true },
};

export const isPlan = (s: string): s is Plan => (PLANS as readonly string[]).includes(s);
