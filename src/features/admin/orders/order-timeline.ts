import { longDate } from '../../../lib/dates.ts';
import { formatUsd, toCents, type Cents } from '../../../lib/money.ts';

// Everything that happened to an order, oldest first: placed and paid, each email, each
// operator action. Pure: the caller loads the rows.

export interface TimelineEvent {
  at: Date;
  title: string;
  detail: string | null;
  who: string;
}

export interface TimelineSources {
  order: { createdAt: Date; totalAmount: Cents; stripePaymentIntentId: string | null };
  customerName: string;
  emails: Array<{ id: number; subject: string; toAddress: string; createdAt: Date; sentAt: Date | null }>;
  audit: Array<{ id: number; action: string; afterJson: string | null; createdAt: Date; actorName: string }>;
}

/** Placed first, then at the same instant an operator's action before the email it caused. */
const RANK = { placed: 0, audit: 1, email: 2 } as const;

export function orderTimeline({ order, customerName, emails, audit }: TimelineSources, dateTime: (d: Date) => string): TimelineEvent[] {
  const rows: Array<TimelineEvent & { rank: number; id: number }> = [];
  rows.push({
    at: order.createdAt,
    title: `Placed and paid ${formatUsd(order.totalAmount)}`,
    detail: order.stripePaymentIntentId ? `Payment ${order.stripePaymentIntentId}` : null,
    who: customerName,
    rank: RANK.placed,
    id: 0,
  });
  for (const email of emails) {
    rows.push({
      at: email.createdAt,
      title: `Email: ${email.subject}`,
      detail: email.sentAt ? `Queued, sent ${dateTime(email.sentAt)}` : 'Queued, not sent yet',
      who: `To ${email.toAddress}`,
      rank: RANK.email,
      id: email.id,
    });
  }
  for (const entry of audit) {
    rows.push({
      at: entry.createdAt,
      ...describe(entry.action, parse(entry.afterJson)),
      who: entry.actorName,
      rank: RANK.audit,
      id: entry.id,
    });
  }
  rows.sort((a, b) => a.at.getTime() - b.at.getTime() || a.rank - b.rank || a.id - b.id);
  return rows.map(({ at, title, detail, who }) => ({ at, title, detail, who }));
}

type After = Record<string, unknown> & { refund?: { amount: string; reason: string } };

function describe(action: string, after: After): { title: string; detail: string | null } {
  const refund = after.refund;
  switch (action) {
    case 'shipped':
      return {
        title: `Shipped with ${String(after.carrier)}, tracking ${String(after.trackingNumber)}`,
        detail:
          typeof after.estimatedDelivery === 'string' && after.estimatedDelivery
            ? `Estimated delivery ${longDate(after.estimatedDelivery.slice(0, 10))}`
            : null,
      };
    case 'delivered':
      return { title: 'Marked delivered', detail: null };
    case 'released':
      return { title: 'Moved to To pack: its pre-ordered books are out', detail: servedDetail(after) };
    case 'canceled': {
      const amount = refund ? formatUsd(toCents(refund.amount)) : '$0.00';
      // A parent's cancel of their own pre-order says so: the operator did not do it.
      if (after.by === 'parent') return { title: `Pre-order canceled by the parent, refunded ${amount}`, detail: returnedDetail(after) };
      return { title: `Canceled and refunded ${amount}`, detail: returnedDetail(after) };
    }
    case 'refunded':
      return {
        title: `Refunded ${refund ? formatUsd(toCents(refund.amount)) : ''}`,
        detail: refund?.reason ? `Reason: ${refund.reason}` : null,
      };
    case 'refund_failed':
      return { title: 'Refund refused by the payment provider', detail: typeof after.error === 'string' ? after.error : null };
    default:
      return { title: action, detail: null };
  }
}

/** What a cancel gave back: copies to the shelf, pre-ordered copies to the title's pre-order count. */
function returnedDetail(after: After): string {
  const unpromised = Array.isArray(after.unpromised) && after.unpromised.length > 0;
  const restocked = !Array.isArray(after.restocked) || after.restocked.length > 0;
  if (unpromised && restocked) return 'Stock returned; pre-ordered copies given back';
  return unpromised ? 'Pre-ordered copies given back' : 'Stock returned';
}

/** "Served from stock: 2 × The Winter Fox. Estimated delivery March 9, 2027" */
function servedDetail(after: After): string | null {
  const served = Array.isArray(after.served) ? (after.served as Array<{ title?: unknown; quantity?: unknown }>) : [];
  const parts = [];
  if (served.length)
    parts.push(`Served from stock: ${served.map((line) => `${String(line.quantity)} × ${String(line.title)}`).join(', ')}`);
  if (typeof after.estimatedDelivery === 'string' && after.estimatedDelivery)
    parts.push(`Estimated delivery ${longDate(after.estimatedDelivery.slice(0, 10))}`);
  return parts.length ? parts.join('. ') : null;
}

/**
 * An entry's details as written (AuditEntry's writeAudit). Details that are not a JSON object
 * (none recorded, or a row edited by hand into something unreadable) leave the entry shown by
 * its action alone: the timeline is still the order's whole story, only without that detail.
 */
function parse(json: string | null): After {
  let after: unknown = null;
  try {
    after = json ? JSON.parse(json) : null;
  } catch (err) {
    // Only JSON.parse's SyntaxError (unreadable details, the case above); anything else is a bug.
    if (!(err instanceof SyntaxError)) throw err;
  }
  return after !== null && typeof after === 'object' ? (after as After) : {};
}
