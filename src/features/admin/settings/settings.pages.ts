import { Router } from 'express';
import type { Db } from '../../../db.ts';
import { thresholdInput } from './settings.schemas.ts';
import { operatorId, operatorPages } from '../access/operator-access.ts';
import { lowStockThreshold, setLowStockThreshold } from './settings.ts';
import { refusal, zodProblems } from '../../../web/form-problems.ts';
import { keepRefusal, typedValues } from '../../../web/kept-refusal.ts';
import { bodyFields } from '../../../web/validate.ts';

const NOT_CHANGED = 'The threshold was not changed';

// GET  /admin/settings   the shop's settings (the low-stock threshold)
// POST /admin/settings   save them; the low-stock view posts here too and is sent back to itself,
//                        a refusal with it (its form sits in that list)
export function settingsPages(db: Db): Router {
  const router = Router();
  router.use('/admin', operatorPages);

  router.get('/admin/settings', async (_req, res) => {
    res.render('admin/settings', { title: 'Settings', values: { threshold: String(await lowStockThreshold(db)) } });
  });

  router.post('/admin/settings', async (req, res) => {
    const parsed = thresholdInput.safeParse(req.body ?? {});
    const from = bodyFields(req.body).from === 'low-stock' ? 'low-stock' : 'settings';
    const back = from === 'low-stock' ? '/admin/books?stock=low' : '/admin/settings';
    if (!parsed.success) {
      const problems = zodProblems(parsed.error);
      if (from === 'low-stock') {
        keepRefusal(req, {
          form: 'threshold',
          title: NOT_CHANGED,
          problems,
          ids: { threshold: 'low-threshold' },
          values: typedValues(req.body, ['threshold']),
        });
        // No fragment: a page opened at one skips autofocus, and the summary is to take the focus.
        return res.redirect(303, back);
      }
      return res.status(400).render('admin/settings', {
        title: 'Settings',
        values: typedValues(req.body, ['threshold']),
        problems: refusal({ form: 'settings', title: NOT_CHANGED, problems, ids: { threshold: 'setting-threshold' } }),
      });
    }
    await setLowStockThreshold(db, parsed.data.threshold, operatorId(req));
    req.session.flash = {
      title: 'Settings saved',
      text: `Books with ${parsed.data.threshold} or fewer copies are listed as low stock.`,
      variant: 'success',
    };
    res.redirect(303, back);
  });

  return router;
}
