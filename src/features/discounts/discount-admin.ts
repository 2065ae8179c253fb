import type { Db } from '../../db.ts';
import { isUniqueViolation } from '../../lib/unique-violation.ts';
import { toDecimal } from '../../lib/money.ts';
import { DiscountCode } from '../../models/DiscountCode.ts';
import { BadRequest, NotFound } from '../../web/errors.ts';
import { writeAudit } from '../../models/AuditEntry.ts';
import type { DiscountInput } from './discounts.schemas.ts';

// The operator's codes: listed, made and changed in /admin/discounts, each change audited in
// its own transaction. Uses and held uses are the checkout's (discount-uses.ts), never the form's.

export const DUPLICATE_CODE = 'Another discount already has this code.';

export const KIND_LABELS: Record<DiscountCode['kind'], string> = {
  percentage: 'Percentage',
  fixed: 'Fixed amount',
  free_shipping: 'Free shipping',
};

/** The form's fields as the operator typed them. */
export function formValues(code: DiscountCode): Record<string, string> {
  return {
    code: code.code,
    kind: code.kind,
    percent: code.kind === 'percentage' ? String(code.percent) : '',
    amount: code.kind === 'fixed' ? toDecimal(code.amount) : '',
    minimumSubtotal: code.minimumSubtotal ? toDecimal(code.minimumSubtotal) : '',
    startsOn: code.startsOn ?? '',
    endsOn: code.endsOn ?? '',
    maxUses: code.maxUses === null ? '' : String(code.maxUses),
    active: code.active ? 'on' : '',
  };
}

/** What the audit log keeps: amounts as the API writes them. */
const snapshot = (c: DiscountInput | DiscountCode) => ({
  code: c.code,
  kind: c.kind,
  percent: c.percent,
  amount: toDecimal(c.amount),
  minimumSubtotal: toDecimal(c.minimumSubtotal),
  startsOn: c.startsOn,
  endsOn: c.endsOn,
  maxUses: c.maxUses,
  active: Boolean(c.active),
});

export function createDiscountAdmin(db: Db) {
  async function saving<T>(save: () => Promise<T>): Promise<T> {
    try {
      return await save();
    } catch (err) {
      if (isUniqueViolation(err)) throw new BadRequest(DUPLICATE_CODE, { field: 'code' });
      throw err;
    }
  }

  return {
    async list(): Promise<DiscountCode[]> {
      return DiscountCode.query(db).orderBy('id', 'desc');
    },

    async find(id: number): Promise<DiscountCode> {
      const code = await DiscountCode.query(db).findById(id);
      if (!code) throw new NotFound('Page Not Found');
      return code;
    },

    async create(input: DiscountInput, actorId: number): Promise<number> {
      return saving(() =>
        db.transaction(async (trx) => {
          const code = await DiscountCode.query(trx).insert({ ...input, createdAt: new Date() });
          await writeAudit(trx, { actorId, action: 'discount.created', before: null, after: snapshot(input) });
          return code.id;
        }),
      );
    },

    async update(id: number, input: DiscountInput, actorId: number): Promise<void> {
      await saving(() =>
        db.transaction(async (trx) => {
          const before = await DiscountCode.query(trx).findById(id).forUpdate();
          if (!before) throw new NotFound('Page Not Found');
          await DiscountCode.query(trx).findById(id).patch(input);
          await writeAudit(trx, { actorId, action: 'discount.edited', before: snapshot(before), after: snapshot(input) });
        }),
      );
    },
  };
}

export type DiscountAdmin = ReturnType<typeof createDiscountAdmin>;
