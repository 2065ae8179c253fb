import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type supertest from 'supertest';
import { currentCode, TWO_FACTOR_MESSAGES } from '../../../../src/features/admin/access/two-factor.ts';
import { User } from '../../../../src/models/User.ts';
import { buildTestShop, formToken, type TestShop } from '../../../helpers/app.ts';
import { ApiBrowser, newParent } from '../../../helpers/accounts.ts';
import { createOperator, operatorBrowser, signInWithPassword, submitTwoFactorCode, type Operator } from '../../../helpers/operator.ts';

let shop: TestShop;
beforeAll(async () => {
  shop = await buildTestShop();
});
afterAll(async () => {
  await shop.close();
});

describe('operator sign-in', () => {
  it('stops at the two-factor step until a current code is given', async () => {
    const operator = await createOperator(shop.db);
    const agent = shop.browser();
    const signedIn = await signInWithPassword(agent, operator);
    expect(signedIn.status).toBe(303);
    expect(signedIn.headers.location).toBe('/admin/two-factor');
    expect((await agent.get('/admin').expect(303)).headers.location).toBe('/admin/two-factor');

    const passed = await submitTwoFactorCode(agent, currentCode(operator.totpSecret!));
    expect(passed.status).toBe(303);
    expect(passed.headers.location).toBe('/admin');
    expect((await agent.get('/admin').expect(200)).text).toContain('Shop status');
  });

  it('reaches /admin through the test helper', async () => {
    const { agent } = await operatorBrowser(shop);
    await agent.get('/admin').expect(200);
  });
});

/** Eta escapes the apostrophe in "That code has already..." and friends. */
const escaped = (text: string) => text.replace(/'/g, '&#39;');

async function atTwoFactorStep(operator: Operator): Promise<supertest.Agent> {
  const agent = shop.browser();
  expect((await signInWithPassword(agent, operator)).headers.location).toBe('/admin/two-factor');
  return agent;
}

/** Enrols a new operator through the pages; returns the secret read off the page and the recovery codes shown. */
async function enrolThroughPages(agent: supertest.Agent): Promise<{ secret: string; codes: string[]; page: supertest.Response }> {
  const enrolPage = await agent.get('/admin/two-factor').expect(200);
  expect(enrolPage.text).toMatch(/class="qr"[^>]*><svg/);
  const secret = /<code class="secret">([A-Z2-7 ]+)<\/code>/.exec(enrolPage.text)![1]!.replace(/ /g, '');
  const page = await agent
    .post('/admin/two-factor/enrol')
    .type('form')
    .send({ _csrf: formToken(enrolPage.text), code: currentCode(secret) });
  const codes = [...page.text.matchAll(/<li><code>([a-z0-9-]+)<\/code><\/li>/g)].map((m) => m[1]!);
  return { secret, codes, page };
}

describe('codes', () => {
  it('refuses a wrong code and stays at the step', async () => {
    const operator = await createOperator(shop.db);
    const agent = await atTwoFactorStep(operator);
    // A 6-digit code that none of the accepted steps (now, and one either side) shows.
    const accepted = [-30_000, 0, 30_000].map((shift) => currentCode(operator.totpSecret!, Date.now() + shift));
    let wrong = '000000';
    while (accepted.includes(wrong)) wrong = String(Number(wrong) + 1).padStart(6, '0');
    const res = await submitTwoFactorCode(agent, wrong);
    expect(res.status).toBe(400);
    expect(res.text).toContain(escaped(TWO_FACTOR_MESSAGES.wrongCode));
    expect((await agent.get('/admin').expect(303)).headers.location).toBe('/admin/two-factor');
  });

  it('refuses a code that was already used, even in another session', async () => {
    const operator = await createOperator(shop.db);
    const code = currentCode(operator.totpSecret!);
    expect((await submitTwoFactorCode(await atTwoFactorStep(operator), code)).status).toBe(303);
    const second = await atTwoFactorStep(operator);
    const res = await submitTwoFactorCode(second, code);
    expect(res.status).toBe(400);
    expect(res.text).toContain(escaped(TWO_FACTOR_MESSAGES.usedCode));
    await second.get('/admin').expect(303);
  });

  it('answers 429 after five wrong codes, even to a right one', async () => {
    const operator = await createOperator(shop.db);
    const agent = await atTwoFactorStep(operator);
    for (let i = 0; i < 5; i++) expect((await submitTwoFactorCode(agent, 'zzzz-zzzz-zzzz')).status).toBe(400);
    const res = await submitTwoFactorCode(agent, currentCode(operator.totpSecret!));
    expect(res.status).toBe(429);
    expect(res.text).toContain(TWO_FACTOR_MESSAGES.tooMany);
    await agent.get('/admin').expect(303);
  });
});

describe('enrolment and recovery codes', () => {
  it('enrols end to end: QR code, first code, ten recovery codes, and a code at the next sign-in', async () => {
    const operator = await createOperator(shop.db, { enrolled: false });
    const agent = await atTwoFactorStep(operator);
    const { secret, codes, page } = await enrolThroughPages(agent);
    expect(page.status).toBe(201);
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    await agent.get('/admin').expect(200);
    const stored = await User.query(shop.db).findById(operator.id);
    expect(stored?.totpSecret).toBe(secret);

    const next = await atTwoFactorStep(operator);
    const step = await next.get('/admin/two-factor').expect(200);
    expect(step.text).not.toContain('class="qr"');
    expect(step.text).toContain('name="code"');
    // A recovery code lets this sign-in through once; the same code is refused the next time.
    const used = await submitTwoFactorCode(next, codes[0]!.toUpperCase());
    expect(used.status).toBe(303);
    expect((await next.get('/admin').expect(200)).text).toContain('9 recovery codes left');
    const again = await submitTwoFactorCode(await atTwoFactorStep(operator), codes[0]!);
    expect(again.status).toBe(400);
    expect((await submitTwoFactorCode(await atTwoFactorStep(operator), codes[1]!)).status).toBe(303);
  });

  it('refuses a wrong first code at enrolment and keeps the account unenrolled', async () => {
    const operator = await createOperator(shop.db, { enrolled: false });
    const agent = await atTwoFactorStep(operator);
    const enrolPage = await agent.get('/admin/two-factor').expect(200);
    const res = await agent
      .post('/admin/two-factor/enrol')
      .type('form')
      .send({ _csrf: formToken(enrolPage.text), code: '000000' });
    expect(res.status).toBe(400);
    expect(res.text).toMatch(/class="qr"[^>]*><svg/);
    expect((await User.query(shop.db).findById(operator.id))?.totpEnrolledAt).toBeNull();
  });
});

describe('customers', () => {
  it('never see the two-factor step: every path of it is a 404', async () => {
    const parent = newParent();
    const api = new ApiBrowser(shop.browser());
    expect((await api.signUp(parent)).status).toBe(201);
    await api.agent.get('/admin/two-factor').expect(404);
    const token = formToken((await api.agent.get('/contact').expect(200)).text);
    await api.agent.post('/admin/two-factor').type('form').send({ _csrf: token, code: '123456' }).expect(404);
    await api.agent.post('/admin/two-factor/enrol').type('form').send({ _csrf: token, code: '123456' }).expect(404);
    const user = await User.query(shop.db).findOne({ email: parent.email });
    expect(user).toMatchObject({ role: 'customer', totpSecret: null });
  });
});
