import { ArgumentMetadata, ValidationPipe, ValidationPipeOptions } from '@nestjs/common';
import { Transform, Type } from 'class-transformer';
import {
  IsInt,
  IsOptional,
  IsString,
  Length,
  Max,
  Min,
  ValidateIf,
  ValidateNested,
  Validate,
  ValidatorConstraint,
  ValidatorConstraintInterface,
} from 'class-validator';
import { CreateCardsDto } from '../cards/admin/card-admin.dto';
import { ConnectLoginDto } from '../connect/connect.dto';
import { HeartbeatDto, SdkCardLoginDto, SdkCheckoutDto } from '../sdk/sdk.dto';
import { V3CardLoginDto } from '../v3/v3.dto';
import { acceptPlanOf } from './accept-plan';
import { PlannedValidationPipe } from './planned-validation.pipe';

class Trimmed {
  @Transform(({ value }) => (typeof value === 'string' ? value.trim() : value))
  @IsString()
  @Length(1, 8)
  name!: string;
}

class Inner {
  @IsString()
  code!: string;
}
class Nested {
  @ValidateNested()
  @Type(() => Inner)
  inner!: Inner;
}

@ValidatorConstraint({ async: true })
class EventuallyShort implements ValidatorConstraintInterface {
  validate(value: unknown) {
    return Promise.resolve(typeof value === 'string' && value.length < 4);
  }
}
class Checked {
  @Validate(EventuallyShort)
  name!: string;
}

class Conditional {
  @IsOptional()
  @IsString()
  @Length(2, 4)
  label?: string | null;

  @ValidateIf((dto: Conditional) => dto.label === 'int')
  @IsInt()
  @Min(0)
  @Max(9)
  digit?: number;

  @IsString({ validateIf: (dto: Conditional) => dto.label !== 'any' })
  note?: unknown;
}

const STRICT: ValidationPipeOptions & { transform: true; whitelist: true } = {
  transform: true,
  whitelist: true,
  forbidNonWhitelisted: true,
};
const LENIENT: ValidationPipeOptions & { transform: true; whitelist: true } = { transform: true, whitelist: true };

const odd = [
  '',
  'x',
  'a'.repeat(128),
  'a'.repeat(129),
  '😀'.repeat(128),
  '😀'.repeat(129),
  'e\uFE0F'.repeat(64),
  'ok:nonce-1',
  'bad nonce!',
  7,
  0,
  -1,
  1.5,
  86400,
  true,
  null,
  { a: 1 },
  ['x'],
];
const extras: Array<Record<string, unknown>> = [
  {},
  { extra: 'x' },
  { extra: { deep: true } },
  JSON.parse('{"__proto__": "x"}') as Record<string, unknown>,
];

/** Every field from `odd` one at a time over a valid body, missing fields, extra fields, and bodies that are not objects. */
function bodiesFor(valid: Record<string, unknown>): unknown[] {
  const bodies: unknown[] = [undefined, null, 'text', 7, [valid], valid];
  for (const key of [...Object.keys(valid), 'label', 'digit', 'name', 'nonce', 'ttl_seconds', 'kind', 'uses']) {
    for (const value of odd) bodies.push({ ...valid, [key]: value });
    const { [key]: _dropped, ...without } = valid;
    bodies.push(without);
  }
  for (const extra of extras) bodies.push(Object.assign({ ...valid }, extra));
  return bodies;
}

async function outcome(pipe: ValidationPipe, body: unknown, metatype: new () => object): Promise<unknown> {
  const metadata: ArgumentMetadata = { type: 'body', metatype, data: undefined };
  try {
    const value: unknown = await pipe.transform(structuredClone(body), metadata);
    return { accepted: value, type: (value as object | null)?.constructor?.name };
  } catch (error) {
    return { refused: (error as { getResponse(): unknown }).getResponse(), type: (error as Error).constructor.name };
  }
}

const cases: Array<[new () => object, Record<string, unknown>]> = [
  [ConnectLoginDto, { user_key: 'CARD-1', serial: 'pc-1', nonce: 'n-1' }],
  [SdkCardLoginDto, { app: '10000001', card_key: 'CARD-1', machine_id: 'pc-1' }],
  [SdkCheckoutDto, { app: '10000001', card_key: 'CARD-1', machine_id: 'pc-1', ttl_seconds: 3600 }],
  [HeartbeatDto, { machine_id: 'pc-1' }],
  [V3CardLoginDto, { app: '10000001', kami: 'CARD-1', imei: 'pc-1' }],
  [CreateCardsDto, { count: 5, duration_seconds: 0, kind: 'count', uses: 3, note: null, concurrent_limit: null }],
  [Conditional, { label: 'int', digit: 4, note: 'n' }],
  [Trimmed, { name: ' padded ' }],
  [Nested, { inner: { code: 'x' } }],
  [Checked, { name: 'abc' }],
];

describe('PlannedValidationPipe', () => {
  it.each(cases)('gives what ValidationPipe gives, accepted or refused, for every body of %p', async (dto, valid) => {
    for (const options of [STRICT, LENIENT]) {
      const reference = new ValidationPipe(options);
      const planned = new PlannedValidationPipe(options);
      for (const body of bodiesFor(valid)) {
        expect([JSON.stringify(body), await outcome(planned, body, dto)]).toStrictEqual([
          JSON.stringify(body),
          await outcome(reference, body, dto),
        ]);
      }
    }
  });

  it("accepts the hot routes' valid bodies without the full pipeline", async () => {
    const full = jest.spyOn(ValidationPipe.prototype, 'transform');
    try {
      const planned = new PlannedValidationPipe(LENIENT);
      const optionalLeftOut: Array<[new () => object, Record<string, unknown>]> = [
        [ConnectLoginDto, { user_key: 'CARD-1', serial: 'pc-1' }],
        [SdkCheckoutDto, { app: '10000001', card_key: 'CARD-1', machine_id: 'pc-1' }],
        [Conditional, { label: 'any', note: 7 }],
        [Conditional, { label: null, note: 'n' }],
      ];
      for (const [dto, valid] of [...cases.slice(0, 5), ...optionalLeftOut]) {
        const accepted: unknown = await planned.transform(
          { ...valid, sent_by_an_old_client: 'x' },
          { type: 'body', metatype: dto },
        );
        expect(accepted).toBeInstanceOf(dto);
        expect(accepted).toStrictEqual(Object.assign(new dto(), valid));
      }
      expect(full).not.toHaveBeenCalled();
    } finally {
      full.mockRestore();
    }
  });

  it('leaves to the full pipeline the DTOs whose instance or rules it cannot decide alone', () => {
    const rulesOf = (dto: new () => object) =>
      (Reflect.get(new PlannedValidationPipe(STRICT), 'planOf') as (d: object) => unknown).call(
        new PlannedValidationPipe(STRICT),
        dto,
      );
    expect(rulesOf(Trimmed)).toBeNull();
    expect(rulesOf(Nested)).toBeNull();
    expect(rulesOf(Checked)).toBeNull();
    expect(rulesOf(HeartbeatDto)).not.toBeNull();
    expect(acceptPlanOf(HeartbeatDto, [])).toBeNull();
  });

  it('sees a rule added to a class after its plan was made', async () => {
    class Late {
      @IsString()
      name!: string;
    }
    const planned = new PlannedValidationPipe(STRICT);
    const metadata: ArgumentMetadata = { type: 'body', metatype: Late };
    expect(await planned.transform({ name: 'x' }, metadata)).toBeInstanceOf(Late);
    Length(2, 4)(Late.prototype, 'name');
    await expect(planned.transform({ name: 'x' }, metadata)).rejects.toThrow('Bad Request');
  });

  it('leaves custom decorators and primitive parameters to ValidationPipe', async () => {
    const planned = new PlannedValidationPipe(STRICT);
    expect(await planned.transform('42', { type: 'param', metatype: Number, data: 'id' })).toBe(42);
    const custom = { machine_id: 42 };
    expect(await planned.transform(custom, { type: 'custom', metatype: HeartbeatDto })).toBe(custom);
  });
});
