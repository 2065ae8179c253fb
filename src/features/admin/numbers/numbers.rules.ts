import type { Cents } from '../../../lib/money.ts';

// What the numbers count. Revenue is what paid orders that are still kept brought in: an
// order canceled (and so refunded in full) counts for nothing; a partial refund is shown
// under refunds, by the day it was paid back. A paid pre-order is money taken: it counts on
// the day it was paid, not on the day its book comes out. Days are UTC days: the shop has no time zone
// setting, and the page says so.

/** Order statuses whose money the shop keeps: paid (a pre-order waiting for its book, or to pack), then perhaps shipped and delivered. */
export const KEPT_STATUSES = ['preordered', 'succeeded', 'shipped', 'delivered'] as const;

/** The periods the /admin home offers, in days ending today. */
export const PERIODS = [30, 90] as const;
export type Period = (typeof PERIODS)[number];

export const DAY_MS = 86_400_000;

/** 'YYYY-MM-DD' of an instant, in UTC. */
export function utcDay(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/** The `count` days ending with today (UTC), oldest first. */
export function lastDays(today: Date, count: number): string[] {
  const end = Date.parse(`${utcDay(today)}T00:00:00Z`);
  return Array.from({ length: count }, (_, i) => utcDay(new Date(end - (count - 1 - i) * DAY_MS)));
}

export interface DayFigures {
  day: string;
  orders: number;
  revenue: Cents;
}

/** One entry per day of the period, in order; a day without orders is zero. */
export function fillDays(days: string[], found: DayFigures[]): DayFigures[] {
  const byDay = new Map(found.map((f) => [f.day, f]));
  return days.map((day) => byDay.get(day) ?? { day, orders: 0, revenue: 0 });
}

/** Average order value in whole cents, rounded half up; none without orders. */
export function averageOrderValue(revenue: Cents, orders: number): Cents | null {
  return orders === 0 ? null : Math.round(revenue / orders);
}
