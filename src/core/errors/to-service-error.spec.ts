import {
  BadRequestException,
  ForbiddenException,
  HttpException,
  InternalServerErrorException,
  NotFoundException,
  PayloadTooLargeException,
  UnauthorizedException,
  UnsupportedMediaTypeException,
} from '@nestjs/common';
import { ErrorCode } from './error-code';
import { ServiceError } from './service-error';
import { classifyError } from './to-service-error';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('classifyError', () => {
  it('passes a ServiceError through unchanged', () => {
    const original = new ServiceError(ErrorCode.CARD_BANNED, 'banned!');
    const { error, fault } = classifyError(original);
    expect(error).toBe(original);
    expect(fault).toBe(false);
  });

  it('treats a thrown SYSTEM_ERROR ServiceError as a fault', () => {
    const original = new ServiceError(ErrorCode.SYSTEM_ERROR, undefined, { errorId: 'e1' });
    expect(classifyError(original)).toEqual({ error: original, fault: true });
  });

  it('maps a value PostgreSQL refuses (data exception, as TypeORM wraps it) to BAD_REQUEST, not a fault', () => {
    for (const code of ['22021', '22001', '22P02', '54000']) {
      const thrown = Object.assign(new Error('query failed'), { driverError: { code } });
      const { error, fault } = classifyError(thrown);
      expect([error.code, fault, error.errorId]).toEqual([ErrorCode.BAD_REQUEST, false, undefined]);
    }
    expect(classifyError(Object.assign(new Error('deadlock'), { code: '40P01' })).fault).toBe(true);
  });

  it('maps a validation BadRequestException to BAD_REQUEST with the field messages', () => {
    const thrown = new BadRequestException(['card_key must be a string', 'machine_id should not be empty']);
    const { error, fault } = classifyError(thrown);
    expect(fault).toBe(false);
    expect(error.code).toBe(ErrorCode.BAD_REQUEST);
    expect(error.httpStatus).toBe(400);
    expect(error.details).toEqual(['card_key must be a string', 'machine_id should not be empty']);
    expect(error.errorId).toBeUndefined();
  });

  it('gives no details for a BadRequestException with a plain string message', () => {
    const { error } = classifyError(new BadRequestException('secret internal text'));
    expect(error.code).toBe(ErrorCode.BAD_REQUEST);
    expect(error.details).toBeUndefined();
    expect(error.message).not.toContain('secret internal text');
  });

  it.each([
    ['NotFoundException', new NotFoundException(), ErrorCode.NOT_FOUND, 404],
    ['PayloadTooLargeException', new PayloadTooLargeException(), ErrorCode.PAYLOAD_TOO_LARGE, 413],
    ['UnsupportedMediaTypeException', new UnsupportedMediaTypeException(), ErrorCode.UNSUPPORTED_MEDIA_TYPE, 415],
    ['HttpException 429', new HttpException('Too Many Requests', 429), ErrorCode.RATE_LIMITED, 429],
    ['UnauthorizedException', new UnauthorizedException(), ErrorCode.UNAUTHENTICATED, 401],
    ['ForbiddenException', new ForbiddenException(), ErrorCode.FORBIDDEN, 403],
    ['HttpException 405', new HttpException('x', 405), ErrorCode.METHOD_NOT_ALLOWED, 405],
  ])('maps %s', (_name, thrown, code, http) => {
    const { error, fault } = classifyError(thrown);
    expect(error.code).toBe(code);
    expect(error.httpStatus).toBe(http);
    expect(error.details).toBeUndefined();
    expect(fault).toBe(false);
  });

  it('maps a body-parser error object carrying status 400 to BAD_REQUEST', () => {
    const parserError = Object.assign(new SyntaxError('Unexpected token } in JSON'), {
      status: 400,
      type: 'entity.parse.failed',
    });
    const { error, fault } = classifyError(parserError);
    expect(error.code).toBe(ErrorCode.BAD_REQUEST);
    expect(fault).toBe(false);
    expect(error.message).not.toContain('Unexpected token');
  });

  it('maps a Fastify-style error carrying statusCode 413', () => {
    expect(classifyError({ statusCode: 413, message: 'too big' }).error.code).toBe(ErrorCode.PAYLOAD_TOO_LARGE);
  });

  it('does not trust a non-4xx status on a plain object', () => {
    const { error, fault } = classifyError({ status: 200 });
    expect(error.code).toBe(ErrorCode.SYSTEM_ERROR);
    expect(fault).toBe(true);
  });

  it('turns a plain Error into SYSTEM_ERROR with a fresh error id and no internals', () => {
    const thrown = new Error('connection to db at 10.0.0.5 failed: password=hunter2');
    const first = classifyError(thrown);
    const second = classifyError(thrown);
    expect(first.fault).toBe(true);
    expect(first.error.code).toBe(ErrorCode.SYSTEM_ERROR);
    expect(first.error.httpStatus).toBe(500);
    expect(first.error.errorId).toMatch(UUID);
    expect(second.error.errorId).toMatch(UUID);
    expect(second.error.errorId).not.toBe(first.error.errorId);
    expect(first.error.message).not.toContain('hunter2');
    expect(first.error.message).not.toContain('10.0.0.5');
    expect(first.error.cause).toBe(thrown);
  });

  it.each([
    ['a string', 'boom'],
    ['null', null],
    ['undefined', undefined],
    ['an InternalServerErrorException', new InternalServerErrorException('db down')],
  ])('turns %s into a SYSTEM_ERROR fault', (_name, thrown) => {
    const { error, fault } = classifyError(thrown);
    expect(error.code).toBe(ErrorCode.SYSTEM_ERROR);
    expect(error.errorId).toMatch(UUID);
    expect(fault).toBe(true);
  });
});
