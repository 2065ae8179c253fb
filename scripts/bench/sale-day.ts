// Sale day on the bench's MariaDB shop (production, its default worker processes, behind one
// trusted proxy): fifty parents press Pay for the same two titles at the same moment, first
// without a code, then with a code that has fewer uses than parents. What counts is what the
// parents are told and what is left behind, not the speed: no answer of 500, every start an
// intent or a refusal with a message, no payment intent left uncancelled, the code's uses
// exactly spent.
import { connectDb, type Db } from '../../src/db.ts';
import { bumpCatalogueVersion } from '../../src/features/catalog/catalogue-version.ts';
import { createLogger } from '../../src/log.ts';
import { addressInBlock, parentsArriving, pressPayAtOnce, tally, unreadable, type SaleParent } from '../../test/helpers/sale-day-parent.ts';

const PARENTS = 50;
const TITLES = [2, 3];
const COPIES_EACH = 2;
const STOCK = 5000;
const CODE = 'REVIEWED';
const CODE_USES = 25;

export interface SaleDayRound {
  scenario: string;
  answers: Record<string, number>;
  serverErrors: number;
  unreadable: number;
  slowestMs: number;
  strayIntents: number;
  paid: number;
  /** With the code: uses spent and held after everyone who could paid, and the code's limit. */
  code?: { uses: number; held: number; limit: number };
}

export async function saleDay(baseUrl: string, databaseUrl: string, dataDir: string): Promise<SaleDayRound[]> {
  const db = connectDb({ databaseUrl, dataDir, log: createLogger('silent') });
  try {
    await db.transaction(async (trx) => {
      await trx('books').whereIn('id', TITLES).update({ inStock: STOCK, price: '12.00' });
      await bumpCatalogueVersion(trx);
    });
    await db('discount_codes').insert({
      code: CODE,
      kind: 'fixed',
      percent: 0,
      amount: 200,
      minimumSubtotal: 0,
      maxUses: CODE_USES,
      uses: 0,
      held: 0,
      active: true,
      createdAt: new Date(),
    });
    const withoutCode = await round(db, 'fifty parents, the same two titles', await parentsWithCarts(baseUrl, 1));
    const withCode = await round(db, `fifty parents with a ${CODE_USES}-use code`, await parentsWithCarts(baseUrl, 2, CODE));
    const code = await db<{ code: string; uses: number; held: number }>('discount_codes').where({ code: CODE }).first('uses', 'held');
    if (!code) throw new Error(`the code ${CODE} is gone`);
    withCode.code = { uses: Number(code.uses), held: Number(code.held), limit: CODE_USES };
    return [withoutCode, withCode];
  } finally {
    await db.destroy();
  }
}

async function parentsWithCarts(baseUrl: string, block: number, code?: string): Promise<SaleParent[]> {
  const parents = await parentsArriving(baseUrl, PARENTS, addressInBlock(block));
  await Promise.all(
    parents.map(async (parent, i) => {
      // Half put the titles in the other way round: the lock order must not care.
      for (const id of i % 2 ? [...TITLES].reverse() : TITLES) await parent.add(id, COPIES_EACH);
      if (code) await parent.applyCode(code);
    }),
  );
  return parents;
}

async function round(db: Db, scenario: string, parents: SaleParent[]): Promise<SaleDayRound> {
  const { answers, slowestMs } = await pressPayAtOnce(parents);
  const strayIntents = await countStrayIntents(db);
  const started = parents.filter((_, i) => answers[i]!.status === 200);
  const paid = (await Promise.all(started.map((p) => p.payAndComplete()))).filter(Boolean).length;
  return {
    scenario,
    answers: tally(answers),
    serverErrors: answers.filter((a) => a.status >= 500).length,
    unreadable: unreadable(answers).length,
    slowestMs,
    strayIntents,
    paid,
  };
}

/** Intents the provider still holds live that no open or paid checkout stands behind. */
async function countStrayIntents(db: Db): Promise<number> {
  const rows = await db('sandboxPaymentIntents as i')
    .leftJoin('checkouts as c', 'c.paymentIntentId', 'i.id')
    .whereNot('i.status', 'canceled')
    .where((q) => q.whereNull('c.id').orWhere('c.status', 'canceled'))
    .select('i.id');
  return rows.length;
}

/** Whether a round kept every promise of sale day. */
export function saleDayHeld(r: SaleDayRound): boolean {
  const codeSpent = !r.code || (r.code.uses === Math.min(r.code.limit, r.paid) && r.code.held === 0);
  return r.serverErrors === 0 && r.unreadable === 0 && r.strayIntents === 0 && codeSpent;
}

export function saleDayTable(rounds: readonly SaleDayRound[]): string[] {
  const lines = [
    '| sale day (MariaDB + Redis) | answers to Pay, by status | 5xx | unreadable | slowest answer | intents left live | paid | code uses / held / limit |',
    '|---|---|---|---|---|---|---|---|',
  ];
  for (const r of rounds) {
    const answers = Object.entries(r.answers)
      .map(([status, n]) => `${n} × ${status}`)
      .join(', ');
    const code = r.code ? `${r.code.uses} / ${r.code.held} / ${r.code.limit}` : '';
    lines.push(
      `| ${r.scenario} | ${answers} | ${r.serverErrors} | ${r.unreadable} | ${Math.round(r.slowestMs)} ms | ${r.strayIntents} | ${r.paid} | ${code} |`,
    );
  }
  return lines;
}
