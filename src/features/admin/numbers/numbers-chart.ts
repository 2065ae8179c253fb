import { formatUsdBrief } from '../../../lib/money.ts';
import type { DayFigures } from './numbers.rules.ts';

// The geometry of the day-by-day bar charts on the /admin home, drawn by the server as SVG.
// The view box is about a phone's width in CSS pixels, so its labels stay readable there and
// simply grow on a wider screen.

const WIDTH = 340;
const HEIGHT = 190;
const PLOT = { left: 44, right: WIDTH - 8, top: 10, bottom: HEIGHT - 26 };

/** What a chart counts: revenue in cents, or orders. */
export type Measure = 'revenue' | 'orders';

export interface DayChart {
  measure: Measure;
  width: number;
  height: number;
  plot: typeof PLOT & { height: number };
  /** The scale's top: a round figure at or above the best day. */
  top: number;
  bars: Array<{ x: number; y: number; width: number; height: number; day: string; value: number }>;
  gridlines: Array<{ y: number; label: string }>;
  dayLabels: Array<{ x: number; label: string; anchor: 'start' | 'middle' | 'end' }>;
}

const shortDay = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });

export function dayChart(days: DayFigures[], measure: Measure): DayChart {
  const plotHeight = PLOT.bottom - PLOT.top;
  const values = days.map((d) => d[measure]);
  const top = measure === 'revenue' ? moneyTop(Math.max(0, ...values)) : countTop(Math.max(0, ...values));
  const slot = (PLOT.right - PLOT.left) / Math.max(days.length, 1);
  const barWidth = Math.max(1, slot * 0.7);
  const bars = days.map((d, i) => {
    const height = (d[measure] / top) * plotHeight;
    return {
      x: PLOT.left + i * slot + (slot - barWidth) / 2,
      y: PLOT.bottom - height,
      width: barWidth,
      height,
      day: d.day,
      value: d[measure],
    };
  });
  const label = (value: number) => (measure === 'revenue' ? formatUsdBrief(value) : String(value));
  const gridlines = [0, 0.5, 1].map((share) => ({ y: PLOT.bottom - share * plotHeight, label: label(top * share) }));
  const middle = Math.round((days.length - 1) / 2);
  const picks: Array<[number, 'start' | 'middle' | 'end']> = [
    [0, 'start'],
    [middle, 'middle'],
    [days.length - 1, 'end'],
  ];
  const dayLabels = days.length
    ? picks.map(([i, anchor]) => ({
        x: PLOT.left + i * slot + slot / 2,
        label: shortDay.format(new Date(`${days[i]!.day}T00:00:00Z`)),
        anchor,
      }))
    : [];
  return { measure, width: WIDTH, height: HEIGHT, plot: { ...PLOT, height: plotHeight }, top, bars, gridlines, dayLabels };
}

/** Cents: 1, 2 or 5 times a power of ten, at least $10 (an empty period still has a scale). */
function moneyTop(max: number): number {
  return roundUp(Math.max(max, 1000), [1, 2, 5, 10]);
}

/** Orders: 2, 4 or 10 times a power of ten, so the middle line is a whole number of orders. */
function countTop(max: number): number {
  return roundUp(Math.max(max, 2), [1, 2, 4, 10]);
}

function roundUp(max: number, steps: number[]): number {
  const power = 10 ** Math.floor(Math.log10(max));
  return steps.map((m) => m * power).find((top) => top >= max && (top / 2) % 1 === 0)!;
}
