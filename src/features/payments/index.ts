import type { Config } from '../../config.ts';
import type { Db } from '../../db.ts';
import type { PaymentProvider } from './provider.ts';
import { createSandboxProvider, type SandboxProvider } from './sandbox-provider.ts';
import { createStripeProvider } from './stripe-provider.ts';

export * from './provider.ts';
export { SANDBOX_TEST_CARDS, createSandboxProvider, type SandboxProvider } from './sandbox-provider.ts';
export { createStripeProvider } from './stripe-provider.ts';

/**
 * Stripe when both keys are configured, otherwise the built-in sandbox. loadConfig already
 * refuses to start production on the sandbox unless ALLOW_SANDBOX_PAYMENTS_IN_PRODUCTION is set.
 */
export function createPaymentProvider({ config, db }: { config: Config; db: Db }): PaymentProvider {
  if (config.STRIPE_SECRET_KEY && config.STRIPE_PUBLISHABLE_KEY) return createStripeProvider(config);
  return createSandboxProvider(db);
}

export function isSandbox(provider: PaymentProvider): provider is SandboxProvider {
  return (
    provider.name === 'sandbox' &&
    typeof (provider as Partial<SandboxProvider>).confirmCard === 'function' &&
    typeof (provider as Partial<SandboxProvider>).completeAuthentication === 'function'
  );
}
