import { requestLogger } from '../../web/request-log.ts';
import { Router, type Response } from 'express';
import { clientAddress } from '../../web/auth.ts';
import { isClientError } from '../../web/errors.ts';
import { isServiceUnavailable, RETRY_AFTER_SECONDS } from '../../web/unavailable.ts';
import { CONTACT_MESSAGES, contactMessage } from './contact.schemas.ts';
import type { ContactService } from './contact.service.ts';
import { bodyFields, summaryOf } from '../../web/validate.ts';
import { refusal, zodProblems, type Refusal } from '../../web/form-problems.ts';

// GET  /contact        the form
// POST /contact        plain-HTML submission: saved, then on to /contact/sent;
//                      on any refusal the form comes back filled in, the reason above it and beside
//                      each field, and (when the shop could not take it) an address to write to
// GET  /contact/sent   'Message Sent Successfully!' in place of the form, saying where the reply
//                      goes, for as long as the parent stays on it (a reload too), with a link to
//                      write again; without a message sent in this session, the form

declare module 'express-session' {
  interface SessionData {
    /** Who the last message sent in this session will be answered as. */
    contactSent: { firstName: string; email: string };
  }
}

export function contactPages(contact: ContactService, { contactEmail }: { contactEmail: string }): Router {
  const router = Router();
  const render = (
    res: Response,
    view: { values: Record<string, unknown>; problems?: Refusal; sendFailed?: boolean; sent?: { firstName: string; email: string } },
  ) => res.render('contact/form', { title: 'Contact', contactEmail, sendFailed: false, ...view });

  router.get('/contact', (_req, res) => {
    render(res, { values: {} });
  });

  router.get('/contact/sent', (req, res) => {
    const sent = req.session.contactSent;
    if (!sent) return res.redirect(303, '/contact');
    render(res, { values: {}, sent });
  });

  router.post('/contact', async (req, res) => {
    // Everything the parent typed goes back into the form on any refusal: nothing is lost.
    const values = bodyFields(req.body);
    const parsed = contactMessage.safeParse(req.body);
    if (!parsed.success) {
      const lead = summaryOf(parsed.error);
      const heading = lead === CONTACT_MESSAGES.incomplete.text ? CONTACT_MESSAGES.incomplete : CONTACT_MESSAGES.badEmail;
      const problems = refusal({
        form: 'contact',
        title: heading.title,
        lead: heading === CONTACT_MESSAGES.incomplete ? heading.text : null,
        problems: zodProblems(parsed.error),
        ids: CONTACT_FIELD_IDS,
      });
      return render(res.status(400), { values, problems });
    }
    const failed = (text: string) =>
      refusal({ form: 'contact', title: CONTACT_MESSAGES.failed.title, problems: [{ message: text }], ids: CONTACT_FIELD_IDS });
    try {
      await contact.saveMessage(parsed.data, { client: clientAddress(req), session: req.sessionID });
    } catch (err) {
      if (isClientError(err)) {
        return render(res.status(err.status), { values, problems: failed(err.message), sendFailed: true });
      }
      // The parent's words are still in the request: give them back with the form rather than
      // the generic error page, so a retry is one tap and nothing typed is lost.
      const status = isServiceUnavailable(err) ? 503 : 500;
      requestLogger(req).error({ err }, 'contact message not saved');
      if (status === 503) res.set('Retry-After', String(RETRY_AFTER_SECONDS));
      return render(res.status(status), { values, problems: failed(CONTACT_MESSAGES.failed.text), sendFailed: true });
    }
    req.session.contactSent = { firstName: parsed.data.firstName, email: parsed.data.email };
    res.redirect(303, '/contact/sent');
  });

  return router;
}

/** The form's inputs, in the order it shows them. */
const CONTACT_FIELD_IDS = {
  firstName: 'contact-first',
  lastName: 'contact-last',
  email: 'contact-email',
  currentMember: 'contact-member-yes',
  subject: 'contact-subject',
  description: 'contact-message',
};
