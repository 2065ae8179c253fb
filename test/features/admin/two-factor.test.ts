import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentCode } from '../../../src/features/admin/two-factor.ts';
import { buildTestShop, type TestShop } from '../../helpers/app.ts';
import { createOperator, operatorBrowser, signInWithPassword, submitTwoFactorCode } from '../../helpers/operator.ts';

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
