import { ValidateIf } from 'class-validator';

/**
 * An optional field that, when present, must be valid: unlike @IsOptional(), `null` is validated
 * (and refused) instead of skipped, so a null cannot reach a NOT NULL column as a 500.
 */
export const Optional = () => ValidateIf((_object, value) => value !== undefined);
