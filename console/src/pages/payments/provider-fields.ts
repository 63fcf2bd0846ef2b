import type { Schemas } from '../../api/client';

export type ProviderSettings = Schemas['PaymentSettingsView'];

/** One field of a provider's settings form. */
export interface ProviderField {
  name: string;
  /** Write-only: answered masked, left out of a save when left empty (the service keeps the stored one). */
  secret: boolean;
  optional: boolean;
  /** A PEM key or such: a text area. */
  multiline: boolean;
  placeholder?: string;
}

const field = (name: string, extra: Partial<ProviderField> = {}): ProviderField => ({
  name,
  secret: false,
  optional: false,
  multiline: false,
  ...extra,
});

/**
 * The providers the console offers before any is set up, with their fields (decisions §26). A
 * provider the service answers that is not listed here still gets a form, built from its answer
 * (its settings and its masked secrets), so a new gateway shows without a console change.
 */
const KNOWN: Record<string, ProviderField[]> = {
  epay: [field('gateway_url', { placeholder: 'https://pay.example.com/' }), field('pid'), field('key', { secret: true })],
  stripe: [
    field('secret_key', { secret: true, placeholder: 'sk_live_…' }),
    field('webhook_secret', { secret: true, placeholder: 'whsec_…' }),
    field('api_base', { optional: true, placeholder: 'https://api.stripe.com' }),
  ],
  alipay: [
    field('app_id'),
    field('private_key', { secret: true, multiline: true }),
    field('alipay_public_key', { multiline: true }),
    field('gateway_url', { optional: true, placeholder: 'https://openapi.alipay.com/gateway.do' }),
  ],
};

/** The providers to show: the known ones in their order, then any other the service answered. */
export function providerNames(answered: readonly ProviderSettings[]): string[] {
  return [...new Set([...Object.keys(KNOWN), ...answered.map((row) => row.provider)])];
}

/**
 * A provider's form fields: the known list, with what the answer says winning (a field it masks is
 * secret; a field it answers that the list lacks is added).
 */
export function providerFields(name: string, stored?: ProviderSettings): ProviderField[] {
  const fields = [...(KNOWN[name] ?? [])];
  const answeredSecrets = Object.keys(stored?.secrets ?? {});
  const answeredPlain = Object.keys(stored?.settings ?? {});
  for (const [names, secret] of [
    [answeredPlain, false],
    [answeredSecrets, true],
  ] as const) {
    for (const fieldName of names) {
      const index = fields.findIndex((known) => known.name === fieldName);
      if (index === -1) fields.push(field(fieldName, { secret }));
      else if (fields[index].secret !== secret) fields[index] = { ...fields[index], secret };
    }
  }
  return fields;
}

/**
 * The body of a save: enabled, the plain fields as typed (an empty optional one left out), and only
 * the secrets typed anew (an empty one left out keeps the stored value).
 */
export function settingsBody(fields: readonly ProviderField[], values: Record<string, unknown>): Record<string, unknown> {
  const body: Record<string, unknown> = { enabled: values.enabled === true };
  for (const { name } of fields) {
    const value = typeof values[name] === 'string' ? (values[name] as string).trim() : values[name];
    if (value !== undefined && value !== null && value !== '') body[name] = value;
  }
  return body;
}
