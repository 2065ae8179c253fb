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

/** The longest code, and the width of the columns that hold one. */
export const CODE_MAX_LENGTH = 40;
export const CODE_PATTERN = new RegExp(`^[A-Z0-9-]{1,${CODE_MAX_LENGTH}}$`);

export interface CodeState {
  active: boolean | number;
  startsOn: string | null;
  endsOn: string | null;
  maxUses: number | null;
  uses: number;
  held: number;
  minimumSubtotal: Cents;
}

/** Whether a code can be used today, whatever the basket: the one answer checkout and the back office share. */
export type CodeStatus = 'on' | 'off' | 'not_started' | 'expired' | 'used_up';

/** How the back office names each state. */
export const CODE_STATUS_LABELS: Record<CodeStatus, string> = {
  on: 'On',
  off: 'Off',
  not_started: 'Not started',
  expired: 'Expired',
  used_up: 'Used up',
};

/**
 * The code's state today. The first reason wins, in the order a parent is told them: switched
 * off, not started, expired, used up (uses held by payments in progress count as used).
 */
export function codeStatus(code: Omit<CodeState, 'minimumSubtotal'>, today: string): CodeStatus {
  if (!code.active) return 'off';
  if (code.startsOn && today < code.startsOn) return 'not_started';
  if (code.endsOn && today > code.endsOn) return 'expired';
  if (code.maxUses !== null && code.uses + code.held >= code.maxUses) return 'used_up';
  return 'on';
}

/** Why this code cannot be used now, or undefined when it can. */
export function refusal(code: CodeState, subtotal: Cents, today: string): string | undefined {
  switch (codeStatus(code, today)) {
    case 'off':
      return DISCOUNT_MESSAGES.switchedOff;
    case 'not_started':
      return DISCOUNT_MESSAGES.notStarted(code.startsOn!);
    case 'expired':
      return DISCOUNT_MESSAGES.expired;
    case 'used_up':
      return DISCOUNT_MESSAGES.usedUp;
    case 'on':
      return subtotal < code.minimumSubtotal ? DISCOUNT_MESSAGES.belowMinimum(code.minimumSubtotal) : undefined;
  }
}

/** What the operator is told once a code is saved: whether parents can use it today, and if not, why. */
export function savedSentence(code: Omit<CodeState, 'minimumSubtotal'> & { code: string }, today: string): string {
  switch (codeStatus(code, today)) {
    case 'on':
      return `${code.code} is ready to use.`;
    case 'off':
      return `${code.code} is saved but switched off: parents cannot use it until you tick Active.`;
    case 'not_started':
      return `${code.code} is saved. Parents can use it from ${longDate(code.startsOn!)}.`;
    case 'expired':
      return `${code.code} is saved but has expired: its last day was ${longDate(code.endsOn!)}.`;
    case 'used_up':
      return `${code.code} is saved but used up: all ${code.maxUses} uses are taken.`;
  }
}

/** Today's UTC day, "2026-11-24". */
export const utcToday = (now = new Date()): string => now.toISOString().slice(0, 10);
