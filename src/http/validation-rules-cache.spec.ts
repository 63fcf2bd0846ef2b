import { IsInt, IsString, MaxLength, registerDecorator, validate } from 'class-validator';
import { rememberValidationRules } from './validation-rules-cache';

const failures = async (object: object) =>
  (await validate(object))
    .map(
      (e) =>
        `${e.property}:${Object.keys(e.constraints ?? {})
          .sort()
          .join(',')}`,
    )
    .sort();

describe('rememberValidationRules', () => {
  beforeAll(() => rememberValidationRules());

  class Device {
    @IsString()
    @MaxLength(4)
    machine_id!: unknown;
  }

  it('validates the same way every time once the rules are remembered', async () => {
    for (let i = 0; i < 3; i++) {
      expect(await failures(Object.assign(new Device(), { machine_id: 'pc-1' }))).toEqual([]);
      expect(await failures(Object.assign(new Device(), { machine_id: 'too-long' }))).toEqual(['machine_id:maxLength']);
      expect(await failures(Object.assign(new Device(), { machine_id: 7 }))).toEqual(['machine_id:isString,maxLength']);
    }
  });

  it('sees the inherited rules of a class defined after the first validations', async () => {
    class CountedDevice extends Device {
      @IsInt()
      uses!: unknown;
    }
    expect(await failures(Object.assign(new CountedDevice(), { machine_id: 'too-long', uses: 'x' }))).toEqual([
      'machine_id:maxLength',
      'uses:isInt',
    ]);
  });

  it('sees a rule registered later on a class it has already validated', async () => {
    class Late {
      @IsString()
      name!: unknown;
    }
    expect(await failures(Object.assign(new Late(), { name: '' }))).toEqual([]);
    registerDecorator({
      name: 'notEmpty',
      target: Late,
      propertyName: 'name',
      validator: { validate: (value: unknown) => value !== '' },
    });
    expect(await failures(Object.assign(new Late(), { name: '' }))).toEqual(['name:notEmpty']);
  });

  it('is installed once however often it is asked', async () => {
    rememberValidationRules();
    rememberValidationRules();
    expect(await failures(Object.assign(new Device(), { machine_id: 'too-long' }))).toEqual(['machine_id:maxLength']);
  });
});
