// Plans and the gated features each one includes (API.md part 2).

export const plans = ['starter', 'pro', 'enterprise'] as const;
export type Plan = (typeof plans)[number];

export const features = ['mcp', 'automations', 'dashboards', 'simulations', 'white_label'] as const;
export type Feature = (typeof features)[number];

const proFeatures: Feature[] = ['mcp', 'automations', 'dashboards', 'simulations'];

export const planFeatures: Readonly<Record<Plan, readonly Feature[]>> = Object.freeze({
  starter: [],
  pro: proFeatures,
  enterprise: [...proFeatures, 'white_label'],
});

export const isPlan = (value: string): value is Plan => (plans as readonly string[]).includes(value);

export const planRank = (plan: Plan): number => plans.indexOf(plan);
