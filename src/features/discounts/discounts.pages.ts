import { Router, type Request, type Response } from 'express';
import { formatUsd } from '../../lib/money.ts';
import { longDate } from '../../lib/dates.ts';
import { NotFound, type HttpError } from '../../web/errors.ts';
import { withFormErrors } from '../../web/form-errors.ts';
import { bodyFields, fieldErrors } from '../../web/validate.ts';
import { operatorId, operatorPages } from '../admin/operator-access.ts';
import { recordId } from '../../lib/schema-fields.ts';
import { formValues, KIND_LABELS, type DiscountAdmin } from './discount-admin.ts';
import { discountForm, type DiscountField } from './discounts.schemas.ts';

// GET  /admin/discounts             every code: what it gives, its dates, uses, minimum, on or off
// GET  /admin/discounts/new         the empty form
// POST /admin/discounts             make a code
// GET  /admin/discounts/:id/edit    the form, filled
// POST /admin/discounts/:id         save it (switching a code off is its Active box)
// A refused form comes back filled in, each message beside its field (400, as every form here).
export function discountsPages(discounts: DiscountAdmin): Router {
  const router = Router();
  router.use('/admin', operatorPages);

  router.get('/admin/discounts', async (_req, res) => {
    res.render('admin/discounts', { title: 'Discount codes', codes: await discounts.list(), kindLabels: KIND_LABELS, formatUsd, longDate });
  });

  router.get('/admin/discounts/new', (_req, res) => {
    renderForm(res, { values: { kind: 'percentage', active: 'on' } });
  });

  router.post('/admin/discounts', async (req, res) => {
    const parsed = discountForm.safeParse(req.body ?? {});
    const values = bodyFields(req.body);
    if (!parsed.success) return renderForm(res.status(400), { values, errors: fieldErrors<DiscountField>(parsed.error) });
    await withFormErrors(
      async () => {
        await discounts.create(parsed.data, operatorId(req));
        req.session.flash = { title: 'Code saved', text: `${parsed.data.code} is ready to use.`, variant: 'success' };
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
    if (!parsed.success) return renderForm(res.status(400), { ...state, errors: fieldErrors<DiscountField>(parsed.error) });
    await withFormErrors(
      async () => {
        await discounts.update(code.id, parsed.data, operatorId(req));
        req.session.flash = { title: 'Code saved', text: `${parsed.data.code} is saved.`, variant: 'success' };
        res.redirect(303, '/admin/discounts');
      },
      (err) => refused(res, err, state),
    );
  });

  interface FormState {
    id?: number;
    uses?: number;
    values: Record<string, unknown>;
    errors?: Partial<Record<DiscountField, string>>;
  }

  function renderForm(res: Response, { id, uses, values, errors = {} }: FormState): void {
    const code = typeof values.code === 'string' ? values.code : '';
    res.render('admin/discount-form', {
      title: id ? `Edit code ${code}` : 'New discount code',
      id,
      uses,
      values,
      errors,
    });
  }

  /** A duplicate code goes beside the code field; a code that is gone is the error page's. */
  function refused(res: Response, err: HttpError, state: FormState): void {
    if (err.status === 404) throw err;
    const field = (err.details.field as DiscountField | undefined) ?? 'code';
    renderForm(res.status(err.status), { ...state, errors: { [field]: err.message } });
  }

  return router;
}

const discountId = recordId('Discount id');

function idOf(req: Request): number {
  const id = discountId.safeParse(req.params.id);
  if (!id.success) throw new NotFound('Page Not Found');
  return id.data;
}
