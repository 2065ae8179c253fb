import { Router } from 'express';
import { clientAddress } from '../../web/auth.ts';
import { parse } from '../../web/validate.ts';
import { contactMessage } from './contact.schemas.ts';
import type { ContactService } from './contact.service.ts';

// POST /api/contact   {firstName, lastName, email, currentMember, subject, description}
export function contactApi(contact: ContactService): Router {
  const router = Router();

  router.post('/contact', async (req, res) => {
    const saved = await contact.saveMessage(parse(contactMessage, req.body), { client: clientAddress(req), session: req.sessionID });
    res.status(201).json({ id: saved.id, message: 'Message Sent Successfully!' });
  });

  return router;
}
