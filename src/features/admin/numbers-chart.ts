import type { Cents } from '../../lib/money.ts';
import type { DayFigures } from './numbers.rules.ts';

// The geometry of the revenue chart on the /admin home, drawn by the server as SVG. The
// view box is about a phone's width in CSS pixels, so its labels stay readable there and
// simply grow on a wider screen.

const WIDTH = 340;
const HEIGHT = 190;
const PLOT = { left: 44, right: WIDTH - 8, top: 10, bottom: HEIGHT - 26 };

export interface RevenueChart {
  width: number;
  height: number;
  plot: typeof PLOT & { height: number };
  /** The scale's top, in cents: a round figure at or above the best day. */
  top: Cents;
  bars: Array<{ x: number; y: number; width: number; height: number; day: string; revenue: Cents; orders: number }>;
  gridlines: Array<{ y: number; label: string }>;
  dayLabels: Array<{ x: number; label: string; anchor: 'start' | 'middle' | 'end' }>;
}

const shortDay = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });

export function revenueChart(days: DayFigures[]): RevenueChart {
  const plotHeight = PLOT.bottom - PLOT.top;
  const top = roundTop(Math.max(0, ...days.map((d) => d.revenue)));
  const slot = (PLOT.right - PLOT.left) / Math.max(days.length, 1);
  const barWidth = Math.max(1, slot * 0.7);
  const bars = days.map((d, i) => {
    const height = (d.revenue / top) * plotHeight;
    return { x: PLOT.left + i * slot + (slot - barWidth) / 2, y: PLOT.bottom - height, width: barWidth, height, day: d.day, revenue: d.revenue, orders: d.orders };
  });
  const gridlines = [0, 0.5, 1].map((share) => ({ y: PLOT.bottom - share * plotHeight, label: dollars(top * share) }));
  const middle = Math.round((days.length - 1) / 2);
  const picks: Array<[number, 'start' | 'middle' | 'end']> = [[0, 'start'], [middle, 'middle'], [days.length - 1, 'end']];
  const dayLabels = days.length
    ? picks.map(([i, anchor]) => ({ x: PLOT.left + i * slot + slot / 2, label: shortDay.format(new Date(`${days[i]!.day}T00:00:00Z`)), anchor }))
    : [];
  return { width: WIDTH, height: HEIGHT, plot: { ...PLOT, height: plotHeight }, top, bars, gridlines, dayLabels };
}

/** 1, 2 or 5 times a power of ten, at least $10 (an empty period still has a scale). */
function roundTop(max: Cents): Cents {
  if (max <= 1000) return 1000;
  const power = 10 ** Math.floor(Math.log10(max));
  const step = [1, 2, 5, 10].find((m) => m * power >= max)!;
  return step * power;
}

function dollars(cents: Cents): string {
  return `$${(cents / 100).toLocaleString('en-US', { maximumFractionDigits: 2 })}`;
}
