import type supertest from 'supertest';
import { Secret } from 'otpauth';
import { hashPassword } from '../../src/features/accounts/passwords.ts';
import { currentCode } from '../../src/features/admin/access/two-factor.ts';
import { User } from '../../src/models/User.ts';
import type { Db } from '../../src/db.ts';
import { formToken, type TestShop } from './app.ts';
import { uniqueEmail } from './accounts.ts';

export interface Operator {
  id: number;
  email: string;
  password: string;
  /** The authenticator's secret (base32), or null when not enrolled yet. */
  totpSecret: string | null;
}

/** An operator account straight in the database, enrolled in TOTP unless told otherwise. */
export async function createOperator(db: Db, { enrolled = true, email = uniqueEmail('operator') } = {}): Promise<Operator> {
  const password = 'lantern-admin-42';
  const totpSecret = enrolled ? new Secret({ size: 20 }).base32 : null;
  const user = await User.query(db).insertAndFetch({
    email,
    passwordHash: await hashPassword(password),
    firstName: 'Olive',
    lastName: 'Page',
    role: 'operator',
    totpSecret,
    totpEnrolledAt: enrolled ? new Date() : null,
  });
  return { id: user.id, email, password, totpSecret };
}

/** Signs in at /login with the password only: the session stops at the two-factor step. */
export async function signInWithPassword(agent: supertest.Agent, who: { email: string; password: string }): Promise<supertest.Response> {
  const page = await agent.get('/login').expect(200);
  return agent
    .post('/login')
    .type('form')
    .send({ _csrf: formToken(page.text), email: who.email, password: who.password });
}

/** Posts a code at the two-factor step. */
export async function submitTwoFactorCode(agent: supertest.Agent, code: string): Promise<supertest.Response> {
  const page = await agent.get('/admin/two-factor').expect(200);
  return agent
    .post('/admin/two-factor')
    .type('form')
    .send({ _csrf: formToken(page.text), code });
}

/**
 * A browser signed in as an enrolled operator who has passed the second factor. A code is
 * accepted once, so a second browser for the same operator uses the next step's code
 * (still inside the accepted window).
 */
export async function operatorBrowser(shop: TestShop, operator?: Operator): Promise<{ agent: supertest.Agent; operator: Operator }> {
  const who = operator ?? (await createOperator(shop.db));
  const agent = shop.browser();
  const signedIn = await signInWithPassword(agent, who);
  if (signedIn.status !== 303) throw new Error(`sign-in answered ${signedIn.status}`);
  let res = await submitTwoFactorCode(agent, currentCode(who.totpSecret!));
  if (res.status === 400) res = await submitTwoFactorCode(agent, currentCode(who.totpSecret!, Date.now() + 30_000));
  if (res.status !== 303) throw new Error(`two-factor step answered ${res.status}: ${res.text.slice(0, 200)}`);
  return { agent, operator: who };
}

/** The hidden CSRF field of an admin page, for posting its forms. */
export async function adminFormToken(agent: supertest.Agent, path = '/admin'): Promise<string> {
  return formToken((await agent.get(path).expect(200)).text);
}
