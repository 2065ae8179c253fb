import { describe, expect, it } from 'vitest';
import { dayChart } from '../../../../src/features/admin/numbers/numbers-chart.ts';
import { averageOrderValue, fillDays, lastDays } from '../../../../src/features/admin/numbers/numbers.rules.ts';

describe('the period', () => {
  it('is the days ending today in UTC, oldest first, across a month end', () => {
    const days = lastDays(new Date('2026-03-02T23:59:59Z'), 30);
    expect(days).toHaveLength(30);
    expect(days[0]).toBe('2026-02-01');
    expect(days.at(-1)).toBe('2026-03-02');
    expect(lastDays(new Date('2026-03-03T00:00:00Z'), 90).at(-1)).toBe('2026-03-03');
  });

  it('shows a day without orders as zero', () => {
    const filled = fillDays(['2026-11-01', '2026-11-02', '2026-11-03'], [{ day: '2026-11-02', orders: 2, revenue: 3098 }]);
    expect(filled).toEqual([
      { day: '2026-11-01', orders: 0, revenue: 0 },
      { day: '2026-11-02', orders: 2, revenue: 3098 },
      { day: '2026-11-03', orders: 0, revenue: 0 },
    ]);
  });

  it('averages in whole cents, and has no average without orders', () => {
    expect(averageOrderValue(1000, 3)).toBe(333);
    expect(averageOrderValue(1001, 2)).toBe(501);
    expect(averageOrderValue(0, 0)).toBeNull();
  });
});

describe('the charts', () => {
  const days = [
    { day: '2026-11-01', orders: 0, revenue: 0 },
    { day: '2026-11-02', orders: 1, revenue: 2500 },
    { day: '2026-11-03', orders: 3, revenue: 10_000 },
    { day: '2026-11-04', orders: 2, revenue: 5000 },
  ];

  it('draws one bar per day, as tall as its share of a round top of the scale', () => {
    const chart = dayChart(days, 'revenue');
    expect(chart.bars).toHaveLength(4);
    expect(chart.top).toBe(10_000);
    const [none, quarter, full, half] = chart.bars;
    expect(none!.height).toBe(0);
    expect(full!.height).toBeCloseTo(chart.plot.height);
    expect(half!.height).toBeCloseTo(chart.plot.height / 2);
    expect(quarter!.height).toBeCloseTo(chart.plot.height / 4);
    // Bars stand on the baseline, left to right in date order.
    for (const bar of chart.bars) expect(bar.y + bar.height).toBeCloseTo(chart.plot.bottom);
    expect(chart.bars.map((b) => b.x)).toEqual([...chart.bars.map((b) => b.x)].sort((a, b) => a - b));
  });

  it('rounds the top of the scale up to 1, 2 or 5 times a power of ten dollars', () => {
    expect(dayChart([{ day: '2026-11-01', orders: 1, revenue: 1299 }], 'revenue').top).toBe(2000);
    expect(dayChart([{ day: '2026-11-01', orders: 9, revenue: 31_050 }], 'revenue').top).toBe(50_000);
    expect(dayChart([{ day: '2026-11-01', orders: 0, revenue: 0 }], 'revenue').top).toBe(1000);
  });

  it('scales orders to 2, 4 or 10 times a power of ten, so the middle line is whole orders', () => {
    const top = (orders: number) => dayChart([{ day: '2026-11-01', orders, revenue: 0 }], 'orders').top;
    expect([0, 1, 2, 3, 4, 5, 10, 11, 33, 41].map(top)).toEqual([2, 2, 2, 4, 4, 10, 10, 20, 40, 100]);
    const chart = dayChart(days, 'orders');
    expect(chart.gridlines.map((g) => g.label)).toEqual(['0', '2', '4']);
    expect(chart.bars.map((b) => b.value)).toEqual([0, 1, 3, 2]);
    expect(chart.bars[2]!.height).toBeCloseTo((chart.plot.height * 3) / 4);
  });

  it('labels the scale in dollars and the first, middle and last days', () => {
    const chart = dayChart(days, 'revenue');
    expect(chart.gridlines.map((g) => g.label)).toEqual(['$0', '$50', '$100']);
    expect(chart.dayLabels.map((l) => l.label)).toEqual(['Nov 1', 'Nov 3', 'Nov 4']);
  });
});
