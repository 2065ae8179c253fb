import { Router, type Request, type Response } from 'express';
import { formatUsd } from '../../lib/money.ts';
import { longDate } from '../../lib/dates.ts';
import { NotFound, type HttpError } from '../../web/errors.ts';
import { withFormErrors } from '../../web/form-errors.ts';
import { errorProblems, refusal, zodProblems, type FieldProblem } from '../../web/form-problems.ts';
import { bodyFields } from '../../web/validate.ts';
import { operatorId, operatorPages } from '../admin/access/operator-access.ts';
import { recordId } from '../../lib/schema-fields.ts';
import { formValues, KIND_LABELS, type DiscountAdmin } from './discount-admin.ts';
import { CODE_STATUS_LABELS, codeStatus, savedSentence, utcToday } from './discount.rules.ts';
import { discountForm, type DiscountField, type DiscountInput } from './discounts.schemas.ts';

// GET  /admin/discounts             every code: what it gives, its dates, uses, minimum, and whether it works today
// GET  /admin/discounts/new         the empty form
// POST /admin/discounts             make a code
// GET  /admin/discounts/:id/edit    the form, filled
// POST /admin/discounts/:id         save it (switching a code off is its Active box)
// A refused form comes back filled in, every problem at once, each message beside its field
// (400, as every form here). A saved code's toast says whether parents can use it today.
export function discountsPages(discounts: DiscountAdmin): Router {
  const router = Router();
  router.use('/admin', operatorPages);

  router.get('/admin/discounts', async (_req, res) => {
    const today = utcToday();
    const codes = (await discounts.list()).map((code) => ({ code, status: codeStatus(code, today) }));
    res.render('admin/discounts', {
      title: 'Discount codes',
      codes,
      statusLabels: CODE_STATUS_LABELS,
      kindLabels: KIND_LABELS,
      formatUsd,
      longDate,
    });
  });

  router.get('/admin/discounts/new', (_req, res) => {
    renderForm(res, { values: { kind: 'percentage', active: 'on' } });
  });

  router.post('/admin/discounts', async (req, res) => {
    const parsed = discountForm.safeParse(req.body ?? {});
    const values = bodyFields(req.body);
    if (!parsed.success) return renderForm(res.status(400), { values, problems: zodProblems(parsed.error) });
    await withFormErrors(
      async () => {
        await discounts.create(parsed.data, operatorId(req));
        req.session.flash = { title: 'Code saved', text: saved(parsed.data, 0), variant: 'success' };
        res.redirect(303, '/admin/discounts');
      },
      (err) => refused(res, err, { values }),
    );
  });

  router.get('/admin/discounts/:id/edit', async (req, res) => {
    const code = await discounts.find(idOf(req));
    renderForm(res, { id: code.id, values: formValues(code), uses: code.uses });
  });

  router.post('/admin/discounts/:id', async (req, res) => {
    const code = await discounts.find(idOf(req));
    const parsed = discountForm.safeParse(req.body ?? {});
    const values = bodyFields(req.body);
    const state = { id: code.id, values, uses: code.uses };
    if (!parsed.success) return renderForm(res.status(400), { ...state, problems: zodProblems(parsed.error) });
    await withFormErrors(
      async () => {
        await discounts.update(code.id, parsed.data, operatorId(req));
        // Uses and held uses are the checkout's: the form leaves them as they were.
        req.session.flash = { title: 'Code saved', text: saved(parsed.data, code.uses, code.held), variant: 'success' };
        res.redirect(303, '/admin/discounts');
      },
      (err) => refused(res, err, state),
    );
  });

  interface FormState {
    id?: number;
    uses?: number;
    values: Record<string, unknown>;
    problems?: FieldProblem[];
  }

  function renderForm(res: Response, { id, uses, values, problems = [] }: FormState): void {
    const code = typeof values.code === 'string' ? values.code : '';
    res.render('admin/discount-form', {
      title: id ? `Edit code ${code}` : 'New discount code',
      id,
      uses,
      values,
      ...(problems.length
        ? { problems: refusal({ form: 'discount', title: 'The code was not saved', problems, ids: DISCOUNT_FIELD_IDS }) }
        : {}),
    });
  }

  /** A duplicate code goes beside the code field; a code that is gone is the error page's. */
  function refused(res: Response, err: HttpError, state: FormState): void {
    if (err.status === 404) throw err;
    renderForm(res.status(err.status), { ...state, problems: errorProblems(err).map((p) => ({ ...p, field: p.field ?? 'code' })) });
  }

  return router;
}

/** The confirmation, by the same rule as the list and the checkout. */
function saved(input: DiscountInput, uses: number, held = 0): string {
  return savedSentence({ ...input, uses, held }, utcToday());
}

/** The form's inputs (views/admin/_field.eta names them discount-<field>), in the form's order. */
const DISCOUNT_FIELD_IDS: Record<DiscountField, string> = {
  code: 'discount-code',
  kind: 'discount-kind-percentage',
  percent: 'discount-percent',
  amount: 'discount-amount',
  startsOn: 'discount-startsOn',
  endsOn: 'discount-endsOn',
  maxUses: 'discount-maxUses',
  minimumSubtotal: 'discount-minimumSubtotal',
  active: 'discount-active',
};

const discountId = recordId('Discount id');

function idOf(req: Request): number {
  const id = discountId.safeParse(req.params.id);
  if (!id.success) throw new NotFound('Page Not Found');
  return id.data;
}
