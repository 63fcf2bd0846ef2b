import { Inject, Injectable, Provider } from '@nestjs/common';
import { PaymentProvider } from './payment-provider';
import { AlipayProvider } from './providers/alipay.provider';
import { EpayProvider } from './providers/epay.provider';
import { StripeProvider } from './providers/stripe.provider';

/**
 * Every payment provider, one file each under providers/ (decisions §26): a new gateway is its file
 * and its class here (its notify route in shop-notify.controller.ts); the tables and the admin routes
 * take them as they are.
 */
export const PROVIDER_CLASSES = [EpayProvider, AlipayProvider, StripeProvider] as const;

const ALL_PROVIDERS = Symbol('cardkey.paymentProviders');

/** The Nest providers of the registry: each provider class, and the list of their instances. */
export const PAYMENT_PROVIDER_PROVIDERS: Provider[] = [
  ...PROVIDER_CLASSES,
  { provide: ALL_PROVIDERS, useFactory: (...all: PaymentProvider[]) => all, inject: [...PROVIDER_CLASSES] },
];

/** The providers by name. */
@Injectable()
export class PaymentProviders {
  private readonly byName: ReadonlyMap<string, PaymentProvider>;

  constructor(@Inject(ALL_PROVIDERS) all: PaymentProvider[]) {
    this.byName = new Map(all.map((provider) => [provider.name, provider]));
  }

  /** The names this service knows, in the order they were added. */
  get names(): string[] {
    return [...this.byName.keys()];
  }

  find(name: string): PaymentProvider | null {
    return this.byName.get(name) ?? null;
  }
}
