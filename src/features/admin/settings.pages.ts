import { Router } from 'express';
import type { Db } from '../../db.ts';
import { thresholdInput } from './books.schemas.ts';
import { operatorId, operatorPages } from './operator-access.ts';
import { lowStockThreshold, setLowStockThreshold } from './settings.ts';
import { bodyFields } from '../../web/validate.ts';

// GET  /admin/settings   the shop's settings (the low-stock threshold)
// POST /admin/settings   save them; the low-stock view posts here too and is sent back to itself
export function settingsPages(db: Db): Router {
  const router = Router();
  router.use('/admin', operatorPages);

  router.get('/admin/settings', async (_req, res) => {
    res.render('admin/settings', { title: 'Settings', values: { threshold: String(await lowStockThreshold(db)) }, errors: {} });
  });

  router.post('/admin/settings', async (req, res) => {
    const parsed = thresholdInput.safeParse(req.body ?? {});
    const from = bodyFields(req.body).from === 'low-stock' ? 'low-stock' : 'settings';
    const back = from === 'low-stock' ? '/admin/books?stock=low' : '/admin/settings';
    if (!parsed.success) {
      const message = parsed.error.issues[0]!.message;
      if (from === 'low-stock') {
        req.session.flash = { title: 'Threshold not changed', text: message, variant: 'error' };
        return res.redirect(303, back);
      }
      return res.status(400).render('admin/settings', {
        title: 'Settings',
        values: { threshold: typedThreshold(bodyFields(req.body).threshold) },
        errors: { threshold: message },
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

/** What the operator typed, shown back in the form. */
function typedThreshold(value: unknown): string {
  return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
}
