import { requestLogger } from '../../web/request-log.ts';
import { Router } from 'express';
import { clientAddress } from '../../web/auth.ts';
import { isClientError } from '../../web/errors.ts';
import { isServiceUnavailable, RETRY_AFTER_SECONDS } from '../../web/unavailable.ts';
import { CONTACT_MESSAGES, contactMessage } from './contact.schemas.ts';
import type { ContactService } from './contact.service.ts';
import { bodyFields } from '../../web/validate.ts';

// GET  /contact   the form
// POST /contact   plain-HTML submission: saved, then back to the form with a toast;
//                 on any failure the form comes back filled in, with the reason as a toast
export function contactPages(contact: ContactService): Router {
  const router = Router();

  router.get('/contact', (_req, res) => {
    res.render('contact/form', { title: 'Contact', values: {} });
  });

  router.post('/contact', async (req, res) => {
    const parsed = contactMessage.safeParse(req.body);
    if (!parsed.success) {
      const text = parsed.error.issues[0]?.message;
      const problem = text === CONTACT_MESSAGES.badEmail.text ? CONTACT_MESSAGES.badEmail : CONTACT_MESSAGES.incomplete;
      res.status(400).render('contact/form', {
        title: 'Contact',
        values: bodyFields(req.body),
        flash: { ...problem, variant: 'error' },
      });
      return;
    }
    try {
      await contact.saveMessage(parsed.data, { client: clientAddress(req), session: req.sessionID });
    } catch (err) {
      if (isClientError(err)) {
        res.status(err.status).render('contact/form', {
          title: 'Contact',
          values: bodyFields(req.body),
          flash: { ...CONTACT_MESSAGES.tooMany, text: err.message, variant: 'error' },
        });
        return;
      }
      // The parent's words are still in the request: give them back with the form rather than
      // the generic error page, so a retry is one tap and nothing typed is lost.
      const status = isServiceUnavailable(err) ? 503 : 500;
      requestLogger(req).error({ err }, 'contact message not saved');
      if (status === 503) res.set('Retry-After', String(RETRY_AFTER_SECONDS));
      res.status(status).render('contact/form', {
        title: 'Contact',
        values: bodyFields(req.body),
        flash: { ...CONTACT_MESSAGES.failed, variant: 'error' },
      });
      return;
    }
    req.session.flash = {
      title: 'Message Sent Successfully!',
      text: 'Thank you for reaching out. We typically reply within 24 hours.',
      variant: 'success',
    };
    res.redirect(303, '/contact');
  });

  return router;
}
