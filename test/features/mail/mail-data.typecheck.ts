// Not a test file: `npm run typecheck` compiles it. Each call below must FAIL to compile; if
// one ever compiles (a data type that stopped requiring a field, a template name that is no
// longer checked), its @ts-expect-error is unused and typecheck fails.
import type { Mailer } from '../../../src/features/mail/mailer.ts';
import type { MailRenderer } from '../../../src/features/mail/mail.types.ts';

export function refusedAtCompileTime(mailer: Mailer, renderer: MailRenderer, trx: Parameters<Mailer['enqueue']>[0]): void {
  // @ts-expect-error a reset link needs resetUrl and expiresInMinutes
  void mailer.enqueue(trx, { to: 'a@example.com', template: 'reset-link', data: { firstName: 'A' } });

  // @ts-expect-error a refund notice needs its reason
  renderer.render('order-refunded', { firstName: 'Omar', orderId: 1, total: '1.00' });

  // @ts-expect-error there is no such template
  renderer.render('nope', {});

  // @ts-expect-error an amount is the printed decimal, not a number of cents
  renderer.render('order-canceled', { firstName: 'Leo', orderId: 22, refunded: 3148 });
}
