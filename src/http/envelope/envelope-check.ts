import { NestInterceptor, Type } from '@nestjs/common';
import { INTERCEPTORS_METADATA } from '@nestjs/common/constants';
import { ENVELOPE_FAMILY } from './envelope.decorator';
import { ENVELOPE_INTERCEPTORS } from './envelope.interceptors';
import { Family } from './family';

const ALL_ENVELOPE_INTERCEPTORS: ReadonlyArray<Type<NestInterceptor>> = Object.values(ENVELOPE_INTERCEPTORS);

/**
 * What is wrong with a controller's envelope declaration, or undefined: a client family's controller
 * must carry its family's interceptor (without it, successes would go out as the handler's bare
 * data), and no controller another family's. RouteRegistry refuses to start on the first finding.
 */
export function envelopeMismatch(controller: Type): string | undefined {
  const family = Reflect.getMetadata(ENVELOPE_FAMILY, controller) as Family | undefined;
  const carried = ((Reflect.getMetadata(INTERCEPTORS_METADATA, controller) ?? []) as unknown[]).filter((i) =>
    ALL_ENVELOPE_INTERCEPTORS.includes(i as Type<NestInterceptor>),
  );
  const expected = family && family !== 'admin' ? ENVELOPE_INTERCEPTORS[family] : undefined;
  const names = carried.map((i) => (i as Type).name).join(', ');
  if (expected && !carried.includes(expected)) {
    return `${controller.name} is @Envelope('${family}') but does not carry @UseInterceptors(${expected.name})`;
  }
  if (carried.some((i) => i !== expected)) {
    return `${controller.name} is @Envelope('${family ?? 'none'}') but carries ${names}`;
  }
  return undefined;
}
