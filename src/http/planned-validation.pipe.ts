import { ArgumentMetadata, ValidationPipe, ValidationPipeOptions } from '@nestjs/common';
import { getMetadataStorage } from 'class-validator';
import { AcceptPlan, acceptPlanOf, acceptWithPlan } from './accept-plan';
import { rememberValidationRules } from './validation-rules-cache';

type Dto = new () => object;
type Rules = AcceptPlan['rules'];

/** Options that change what an accepted body becomes or which rules apply: with any of them, every body takes the full pipeline. */
const OPTIONS_THE_PLAN_IGNORES = [
  'expectedType',
  'transformOptions',
  'validatorPackage',
  'transformerPackage',
  'groups',
  'always',
  'strictGroups',
  'skipMissingProperties',
  'skipNullProperties',
  'skipUndefinedProperties',
] as const;

/**
 * Nest's ValidationPipe, with a fast path for the common case: a flat body that passes every rule of
 * its DTO is made into the DTO by a plan worked out once per class (accept-plan.ts), calling the
 * same rule functions; every other body (a refusal, a nested value, a DTO with transformations)
 * goes through the full pipeline, which gives the same instance or the same errors as before.
 */
export class PlannedValidationPipe extends ValidationPipe {
  private readonly plans = new WeakMap<Dto, { rules: Rules; plan: AcceptPlan | null }>();
  private readonly planned: boolean;
  private readonly refuseUnknown: boolean;

  constructor(options: ValidationPipeOptions & { transform: true; whitelist: true }) {
    super(options);
    rememberValidationRules();
    this.planned = OPTIONS_THE_PLAN_IGNORES.every((option) => options[option] === undefined);
    this.refuseUnknown = options.forbidNonWhitelisted === true;
  }

  override transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const plan =
      this.planned && typeof metadata.metatype === 'function' && this.toValidate(metadata)
        ? this.planOf(metadata.metatype as Dto)
        : null;
    const accepted = plan ? acceptWithPlan(plan, metadata.metatype as Dto, value, this.refuseUnknown) : undefined;
    return accepted ? Promise.resolve(accepted) : super.transform(value, metadata);
  }

  private planOf(dto: Dto): AcceptPlan | null {
    // The arguments class-validator's executor looks the rules up with (remembered per class, so the same array until a rule is added).
    const rules = getMetadataStorage().getTargetValidationMetadatas(dto, undefined as unknown as string, false, false, undefined);
    let entry = this.plans.get(dto);
    if (entry?.rules !== rules) this.plans.set(dto, (entry = { rules, plan: acceptPlanOf(dto, rules) }));
    return entry.plan;
  }
}
