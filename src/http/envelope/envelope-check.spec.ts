import { Controller, UseInterceptors } from '@nestjs/common';
import { envelopeMismatch } from './envelope-check';
import { Envelope } from './envelope.decorator';
import { ConnectEnvelopeInterceptor, LegacyEnvelopeInterceptor, StandardEnvelopeInterceptor } from './envelope.interceptors';

/** What RouteRegistry refuses to start with (and what a new controller must carry). */
describe('envelopeMismatch', () => {
  @Envelope('connect')
  @UseInterceptors(ConnectEnvelopeInterceptor)
  @Controller()
  class Carried {}

  @Envelope('standard')
  @Controller()
  class Forgotten {}

  @UseInterceptors(StandardEnvelopeInterceptor)
  @Envelope('legacy')
  @Controller()
  class OtherFamilys {}

  @Envelope('admin')
  @Controller()
  class Admin {}

  @Envelope('admin')
  @UseInterceptors(LegacyEnvelopeInterceptor)
  @Controller()
  class AdminWithClientEnvelope {}

  it('accepts a client controller with its family interceptor, and an admin controller with none', () => {
    expect(envelopeMismatch(Carried)).toBeUndefined();
    expect(envelopeMismatch(Admin)).toBeUndefined();
  });

  it('names the interceptor a client controller forgot', () => {
    expect(envelopeMismatch(Forgotten)).toBe(
      "Forgotten is @Envelope('standard') but does not carry @UseInterceptors(StandardEnvelopeInterceptor)",
    );
  });

  it("refuses another family's interceptor, on a client or an admin controller", () => {
    expect(envelopeMismatch(OtherFamilys)).toMatch(/does not carry @UseInterceptors\(LegacyEnvelopeInterceptor\)/);
    expect(envelopeMismatch(AdminWithClientEnvelope)).toBe(
      "AdminWithClientEnvelope is @Envelope('admin') but carries LegacyEnvelopeInterceptor",
    );
  });
});
