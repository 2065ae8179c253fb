import { formatUsd, type Cents } from '../../lib/money.ts';
import { longDate } from '../../lib/dates.ts';

// Whether a code may be used today on this subtotal. Days are UTC days, as everywhere in the
// shop, and both ends are inclusive: a code ending on "2026-12-24" works all of that UTC day.

export const DISCOUNT_MESSAGES = {
  unknown: "We don't recognise that code. Please check it and try again.",
  notStarted: (day: string) => `That code can be used from ${longDate(day)}.`,
  expired: 'Sorry, that code has expired.',
  usedUp: 'Sorry, that code has been used up.',
  switchedOff: 'Sorry, that code is no longer available.',
  belowMinimum: (minimum: Cents) => `That code needs a subtotal of ${formatUsd(minimum)} or more.`,
  applied: (code: string) => `Code ${code} applied.`,
  removed: 'Code removed.',
};

/** Upper case, as codes are stored: parents type them in any case. */
export const normaliseCode = (code: string): string => code.trim().toUpperCase();

export const CODE_PATTERN = /^[A-Z0-9-]{1,40}$/;

export interface CodeState {
  active: boolean | number;
  startsOn: string | null;
  endsOn: string | null;
  maxUses: number | null;
  uses: number;
  held: number;
  minimumSubtotal: Cents;
}

/** Why this code cannot be used now, or undefined when it can. */
export function refusal(code: CodeState, subtotal: Cents, today: string): string | undefined {
  if (!code.active) return DISCOUNT_MESSAGES.switchedOff;
  if (code.startsOn && today < code.startsOn) return DISCOUNT_MESSAGES.notStarted(code.startsOn);
  if (code.endsOn && today > code.endsOn) return DISCOUNT_MESSAGES.expired;
  if (code.maxUses !== null && code.uses + code.held >= code.maxUses) return DISCOUNT_MESSAGES.usedUp;
  if (subtotal < code.minimumSubtotal) return DISCOUNT_MESSAGES.belowMinimum(code.minimumSubtotal);
  return undefined;
}

/** Today's UTC day, "2026-11-24". */
export const utcToday = (now = new Date()): string => now.toISOString().slice(0, 10);
