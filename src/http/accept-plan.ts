import { TransformationType } from 'class-transformer';
import { defaultMetadataStorage } from 'class-transformer/cjs/storage';
import { getMetadataStorage, ValidationTypes, type ValidationArguments } from 'class-validator';
import { FORBIDDEN_KEYS } from './input-rules';

type Storage = ReturnType<typeof getMetadataStorage>;
type Rule = ReturnType<Storage['getTargetValidationMetadatas']>[number];
type Constraint = ReturnType<Storage['getTargetValidatorConstraints']>[number];
type Dto = new () => object;

interface PropertyPlan {
  name: string;
  /** @IsOptional, @ValidateIf: the property is checked only when all of them say so. */
  conditions: Array<(object: object, value: unknown) => unknown>;
  checks: Array<{ rule: Rule; constraints: Constraint[] }>;
}

/**
 * What class-validator would check on a DTO, worked out once: the same rule functions, called in a
 * plain loop. Used to accept a valid body without class-transformer and class-validator's executor
 * (10 % of a Fastify heartbeat's CPU); anything it cannot decide alone is left to them.
 */
export interface AcceptPlan {
  /** The rule list it was built from: class-validator hands out a new one when a rule is added. */
  readonly rules: readonly Rule[];
  readonly properties: readonly PropertyPlan[];
  readonly known: ReadonlySet<string>;
}

/**
 * The plan for a DTO, or null when its rules need what only the full pipeline does: nested or
 * promise validation, @IsDefined or @Allow, `each`, groups or `always`, an async constraint, or any
 * class-transformer decorator (@Type, @Transform, @Expose, @Exclude), which change the instance.
 */
export function acceptPlanOf(dto: Dto, rules: readonly Rule[], storage: Storage = getMetadataStorage()): AcceptPlan | null {
  if (rules.length === 0) return null;
  if (defaultMetadataStorage.getStrategy(dto) !== 'none') return null;
  if (defaultMetadataStorage.getExposedMetadatas(dto).length > 0 || defaultMetadataStorage.getExcludedMetadatas(dto).length > 0)
    return null;
  const byName = new Map<string, PropertyPlan>();
  for (const rule of rules) {
    if (rule.each || rule.always || (rule.groups && rule.groups.length > 0)) return null;
    const name = rule.propertyName;
    if (FORBIDDEN_KEYS.has(name) || name in dto.prototype) return null;
    if (
      defaultMetadataStorage.findTypeMetadata(dto, name) ||
      defaultMetadataStorage.findTransformMetadatas(dto, name, TransformationType.PLAIN_TO_CLASS).length > 0
    )
      return null;
    let plan = byName.get(name);
    if (!plan) byName.set(name, (plan = { name, conditions: [], checks: [] }));
    if (rule.type === ValidationTypes.CONDITIONAL_VALIDATION) {
      plan.conditions.push(rule.constraints[0] as PropertyPlan['conditions'][number]);
    } else if (rule.type === ValidationTypes.CUSTOM_VALIDATION) {
      const constraints = storage.getTargetValidatorConstraints(rule.constraintCls);
      if (constraints.some((constraint) => constraint.async)) return null;
      plan.checks.push({ rule, constraints });
    } else {
      return null;
    }
  }
  const properties = [...byName.values()];
  return { rules, properties, known: new Set(byName.keys()) };
}

const isPrimitiveOrNull = (value: unknown): boolean =>
  value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';

/**
 * The DTO instance class-transformer would make of `body` when every rule of `plan` passes on it,
 * else undefined (the caller then runs the full pipeline, which gives the errors). Only flat bodies
 * of strings, numbers, booleans and nulls are decided here. An unknown field is dropped as the
 * whitelist drops it, or, when `refuseUnknown`, left to the full pipeline to refuse.
 */
export function acceptWithPlan(plan: AcceptPlan, dto: Dto, body: unknown, refuseUnknown: boolean): object | undefined {
  if (body === null || typeof body !== 'object' || Array.isArray(body) || ArrayBuffer.isView(body)) return undefined;
  const fields = body as Record<string, unknown>;
  const instance = new dto() as Record<string, unknown>;
  for (const key of Object.keys(fields)) {
    const value = fields[key];
    if (!isPrimitiveOrNull(value) || FORBIDDEN_KEYS.has(key)) return undefined;
    if (plan.known.has(key)) instance[key] = value;
    else if (refuseUnknown) return undefined;
  }
  for (const property of plan.properties) {
    const value = instance[property.name];
    if (!property.conditions.every((condition) => condition(instance, value))) continue;
    for (const { rule, constraints } of property.checks) {
      if (rule.validateIf && !rule.validateIf(instance, value)) continue;
      for (const constraint of constraints) {
        const args: ValidationArguments = {
          targetName: dto.name,
          property: property.name,
          object: instance,
          value,
          constraints: rule.constraints,
        };
        if (constraint.instance.validate(value, args) !== true) return undefined;
      }
    }
  }
  return instance;
}
