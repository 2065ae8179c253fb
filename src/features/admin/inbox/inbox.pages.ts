import { Router, type RequestHandler } from 'express';
import { z } from 'zod';
import { NotFound } from '../../../web/errors.ts';
import { parse } from '../../../web/validate.ts';
import { queryWithFallback } from '../../../web/query-fallback.ts';
import type { SessionUser } from '../../accounts/accounts.service.ts';
import type { Inbox } from './inbox.service.ts';
import { hasPassedSecondFactor, operatorId, operatorPages } from '../access/operator-access.ts';
import { pageHref, pageParam } from '../../../lib/paging.ts';

const inboxQuery = z.object({ page: pageParam });
const messageIdParam = z.coerce.number().int().min(1).max(2_147_483_647);
const markForm = z.object({ page: pageParam });

// GET  /admin/inbox               contact messages: URGENT first, then newest; unread marked
// POST /admin/inbox/:id/read      mark one read (audited)
// POST /admin/inbox/:id/unread    mark one unread again (audited)
export function inboxPages(inbox: Inbox): Router {
  const router = Router();
  router.use('/admin', operatorPages);

  router.get('/admin/inbox', async (req, res) => {
    const {
      data: { page: requested },
      notices,
    } = queryWithFallback(inboxQuery, req.query, { page: 'the first page' });
    const result = await inbox.list(requested);
    res.render('admin/inbox', {
      title: 'Inbox',
      ...result,
      notices,
      previousHref: result.page > 1 ? pageHref('/admin/inbox', {}, result.page - 1) : null,
      nextHref: result.page < result.pageCount ? pageHref('/admin/inbox', {}, result.page + 1) : null,
    });
  });

  for (const [path, read] of [
    ['read', true],
    ['unread', false],
  ] as const) {
    router.post(`/admin/inbox/:id/${path}`, async (req, res) => {
      const id = messageIdParam.safeParse(req.params.id);
      if (!id.success) throw new NotFound('That message does not exist.');
      const { page } = parse(markForm, req.body);
      const { name } = await inbox.setRead({ messageId: id.data, read, actorId: operatorId(req) });
      req.session.flash = {
        title: read ? 'Marked as read' : 'Marked as unread',
        text: `The message from ${name} is marked as ${path}.`,
        variant: 'success',
      };
      res.redirect(303, pageHref('/admin/inbox', {}, page));
    });
  }

  return router;
}

/** The unread count beside Inbox in the admin navigation, for operators past the second factor. */
export function inboxUnreadCount(inbox: Inbox): RequestHandler {
  return async (req, res, next) => {
    const user = res.locals.user as SessionUser | null;
    if (user?.role === 'operator' && hasPassedSecondFactor(req)) res.locals.inboxUnread = await inbox.unreadCount();
    next();
  };
}
