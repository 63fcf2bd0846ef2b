import { applyDecorators } from '@nestjs/common';
import { IsString, Length, Matches } from 'class-validator';

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
