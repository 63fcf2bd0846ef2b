import { applyDecorators } from '@nestjs/common';
import { IsISO8601, IsString, Length, Matches, ValidateIf } from 'class-validator';

/** Shared field rules of the client families (spec "Limits"; decisions §1). */
export const NONCE_PATTERN = /^[A-Za-z0-9_.:-]{1,96}$/;
export const PROGRAM_ID_PATTERN = /^[1-9][0-9]{7}$/;

/** A device code (machine code / serial / imei / machine_id): 1-128 characters. */
export const IsDeviceCode = () => applyDecorators(IsString(), Length(1, 128));

/** A card key as typed by an end user: 1-128 characters. */
export const IsCardKey = () => applyDecorators(IsString(), Length(1, 128));

/** A Connect nonce: 1-96 of letters, digits and _ . : - */
export const IsConnectNonce = () =>
  applyDecorators(IsString(), Matches(NONCE_PATTERN, { message: '$property must be 1-96 of letters, digits and _ . : -' }));

/** RFC 3339 date-time with a zone (`2030-01-01T00:00:00Z`), a real calendar date. */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/i;
export const IsDateTime = () =>
  applyDecorators(
    IsString(),
    Matches(DATE_TIME, { message: '$property must be an ISO 8601 date-time with a zone, e.g. 2030-01-01T00:00:00Z' }),
    IsISO8601({ strict: true }, { message: '$property must be a valid date-time' }),
  );

/** Nullable optional field: absent leaves it, null clears it, anything else must be valid. */
export const Nullable = () => ValidateIf((_, value) => value !== undefined && value !== null);
