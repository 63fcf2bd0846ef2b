import { Controller } from '@nestjs/common';
import { INTERCEPTORS_METADATA, PIPES_METADATA } from '@nestjs/common/constants';
import { Envelope } from './envelope.decorator';
import { ConnectEnvelopeInterceptor, LegacyEnvelopeInterceptor, StandardEnvelopeInterceptor } from './envelope.interceptors';

/** What Nest runs for a controller that declares its family: the envelope needs no second decorator. */
describe('@Envelope(family)', () => {
  @Envelope('connect')
  @Controller()
  class Connect {}

  @Envelope('standard')
  @Controller()
  class Standard {}

  @Envelope('legacy')
  @Controller()
  class Legacy {}

  @Envelope('admin')
  @Controller()
  class Admin {}

  const interceptors = (controller: object): unknown[] => Reflect.getMetadata(INTERCEPTORS_METADATA, controller) ?? [];

  it("gives a client family's controller its family's interceptor, and only that one", () => {
    expect(interceptors(Connect)).toEqual([ConnectEnvelopeInterceptor]);
    expect(interceptors(Standard)).toEqual([StandardEnvelopeInterceptor]);
    expect(interceptors(Legacy)).toEqual([LegacyEnvelopeInterceptor]);
  });

  it('gives an admin controller no interceptor: its answer is the handler’s own', () => {
    expect(interceptors(Admin)).toEqual([]);
  });

  it('validates strictly for the admin API and leniently for clients, which send extra fields', () => {
    const options = (controller: object) =>
      (Reflect.getMetadata(PIPES_METADATA, controller) as Array<{ validatorOptions?: { forbidNonWhitelisted?: boolean } }>)[0];
    expect(options(Admin).validatorOptions?.forbidNonWhitelisted).toBe(true);
    expect(options(Connect).validatorOptions?.forbidNonWhitelisted).toBeFalsy();
  });
});
