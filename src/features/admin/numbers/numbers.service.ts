import type { Db } from '../../../db.ts';
import type { Cents } from '../../../lib/money.ts';
import { averageOrderValue, fillDays, KEPT_STATUSES, lastDays, type DayFigures, type Period } from './numbers.rules.ts';
import { centsSum, dayOf, onDays } from '../../../lib/portable-sql.ts';

export interface BestSeller {
  title: string;
  copies: number;
  revenue: Cents;
}

export interface Numbers {
  period: Period;
  first: string;
  last: string;
  days: DayFigures[];
  orders: number;
  revenue: Cents;
  averageOrderValue: Cents | null;
  bestSellers: BestSeller[];
  refunds: { count: number; amount: Cents };
}

const BEST_SELLERS = 5;

/** How the shop did over the last 30 or 90 days: every sum is made in SQL, one row per day or title. */
export function createNumbers(db: Db) {
  const int = (value: unknown) => Number(value ?? 0);

  return {
    async summary(period: Period, now: Date): Promise<Numbers> {
      const days = lastDays(now, period);
      const first = days[0]!;
      const last = days[days.length - 1]!;
      const kept = () =>
        db('orders')
          .whereIn('orders.status', KEPT_STATUSES)
          .modify(onDays(db, 'orders.createdAt', first, last));

      const day = dayOf(db, 'orders.createdAt');
      const perDay: Array<{ day: string; orders: unknown; revenue: unknown }> = await kept()
        .select(db.raw(`${day} as day`), db.raw('COUNT(*) as orders'), db.raw(`${centsSum(db, 'orders.totalAmount')} as revenue`))
        .groupByRaw(day);

      const sellers = (await kept()
        .join('orderItems', 'orderItems.orderId', 'orders.id')
        .select(
          'orderItems.bookId',
          db.raw('MAX(order_items.title) as title'),
          db.raw('SUM(order_items.quantity) as copies'),
          db.raw(`${centsSum(db, 'orderItems.price', 'orderItems.quantity')} as revenue`),
        )
        .groupBy('orderItems.bookId')
        .orderBy([
          { column: 'copies', order: 'desc' },
          { column: 'title', order: 'asc' },
        ])
        .limit(BEST_SELLERS)) as Array<{ title: string; copies: unknown; revenue: unknown }>;

      const refunded: { count: unknown; amount: unknown } = await db('refunds')
        .where('refunds.status', 'succeeded')
        .modify(onDays(db, 'refunds.settledAt', first, last))
        .first(db.raw('COUNT(*) as count'), db.raw(`${centsSum(db, 'refunds.amount')} as amount`));

      const filled = fillDays(
        days,
        perDay.map((r) => ({ day: r.day, orders: int(r.orders), revenue: int(r.revenue) })),
      );
      const orders = filled.reduce((n, d) => n + d.orders, 0);
      const revenue = filled.reduce((n, d) => n + d.revenue, 0);
      return {
        period,
        first,
        last,
        days: filled,
        orders,
        revenue,
        averageOrderValue: averageOrderValue(revenue, orders),
        bestSellers: sellers.map((s) => ({ title: s.title, copies: int(s.copies), revenue: int(s.revenue) })),
        refunds: { count: int(refunded.count), amount: int(refunded.amount) },
      };
    },
  };
}

export type NumbersService = ReturnType<typeof createNumbers>;
