import type { OpenAPIObject } from '@nestjs/swagger';
import { ErrorCode } from '../../core/errors/error-code';
import { CONTRACT_EXTENSIONS } from './api-contract';
import { completeDocument } from './complete-document';

/** A document as Nest's explorer leaves it: the contract decorators' extensions still on the operations. */
function explored(paths: Record<string, Record<string, Record<string, unknown>>>): OpenAPIObject {
  return { openapi: '3.0.0', info: { title: 't', version: '1' }, paths, components: { schemas: {} } } as unknown as OpenAPIObject;
}

const DATA = { $ref: '#/components/schemas/Data' };
const json = (schema: unknown) => ({ content: { 'application/json': { schema } } });

describe('completeDocument', () => {
  const document = completeDocument(
    explored({
      '/api/v1/cards/login': {
        post: {
          responses: { 200: { description: 'Success', ...json(DATA) } },
          [CONTRACT_EXTENSIONS.auth]: 'hmac',
          [CONTRACT_EXTENSIONS.clientFamily]: 'sdk',
          [CONTRACT_EXTENSIONS.failures]: [ErrorCode.CARD_INVALID],
          [CONTRACT_EXTENSIONS.extras]: { token: { type: 'string' } },
        },
      },
      '/admin/v1/projects/{id}/cards/{cardId}': {
        get: {
          responses: { 200: { description: 'Success', ...json(DATA) } },
          [CONTRACT_EXTENSIONS.auth]: 'admin-bearer',
          [CONTRACT_EXTENSIONS.failures]: [ErrorCode.CARD_NOT_FOUND, ErrorCode.PROJECT_NOT_FOUND],
        },
      },
      '/api/v1/portal/cards/info': {
        post: {
          responses: { 201: { description: '' } },
          [CONTRACT_EXTENSIONS.auth]: 'none',
          [CONTRACT_EXTENSIONS.clientFamily]: 'portal',
        },
      },
    }),
  );
  const login = document.paths['/api/v1/cards/login'].post!;
  const card = document.paths['/admin/v1/projects/{id}/cards/{cardId}'].get!;
  const portal = document.paths['/api/v1/portal/cards/info'].post!;

  it('declares the security each auth scheme really sends, and none for unsigned routes', () => {
    expect(login.security).toEqual([{ hmacSignature: [], hmacTimestamp: [], hmacNonce: [] }]);
    expect(card.security).toEqual([{ adminBearer: [] }]);
    expect(portal.security).toEqual([]);
    expect(document.components!.securitySchemes!.adminBearer).toMatchObject({
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'opaque',
    });
  });

  it('answers a client route at 200 with the success envelope or a refusal told apart by code', () => {
    const schema = (
      login.responses[200] as unknown as { content: Record<string, { schema: { oneOf: Array<Record<string, unknown>> } }> }
    ).content['application/json'].schema;
    const [success, refusal] = schema.oneOf;
    expect(success).toMatchObject({
      properties: { token: { type: 'string' }, code: { enum: [0] }, success: { enum: [true] }, data: DATA },
    });
    expect(refusal).toEqual({
      allOf: [
        { $ref: '#/components/schemas/StandardFailure' },
        { type: 'object', properties: { code: { type: 'integer', enum: [ErrorCode.CARD_INVALID] } } },
      ],
    });
    expect((login.responses[200] as { description: string }).description).toContain('`20001` CARD_INVALID');
  });

  it('adds the failures of the input boundary, the authentication and the family gate, one shared response per status', () => {
    expect(Object.keys(login.responses).sort()).toEqual(['200', '400', '401', '403', '404', '409', '413', '415', '429', '500']);
    expect(login.responses[409]).toEqual({ $ref: `#/components/responses/StandardFailure409_${ErrorCode.NONCE_REPLAYED}` });
    expect(document.components!.responses![`StandardFailure409_${ErrorCode.NONCE_REPLAYED}`]).toMatchObject({
      description: expect.stringContaining('NONCE_REPLAYED'),
    });
    expect(card.responses[404]).toEqual({
      $ref: `#/components/responses/AdminError404_${ErrorCode.PROJECT_NOT_FOUND}_${ErrorCode.CARD_NOT_FOUND}`,
    });
    expect(Object.keys(card.responses).sort()).toEqual(['200', '400', '401', '403', '404', '500']);
  });

  it("turns Nest's 201 for a client POST into the 200 the family answers, and removes the extensions", () => {
    expect(Object.keys(portal.responses)).not.toContain('201');
    expect(portal.responses[200]).toBeDefined();
    for (const operation of [login, card, portal]) {
      expect(Object.keys(operation).filter((key) => key.startsWith('x-cardkey'))).toEqual([]);
    }
  });

  it('renders Connect refusal codes negated, as the Connect envelope carries them', () => {
    const connect = completeDocument(
      explored({
        '/connect/{programId}': {
          post: {
            responses: { 200: { description: 'Success', ...json(DATA) } },
            [CONTRACT_EXTENSIONS.failures]: [ErrorCode.CARD_BANNED],
          },
        },
      }),
    ).paths['/connect/{programId}'].post!;
    expect(JSON.stringify(connect.responses[200])).toContain(`[${-ErrorCode.CARD_BANNED}]`);
  });
  it("drops the defaults a PATCH body's schema copied from its create DTO, and keeps the create body's", () => {
    const schemas = {
      CreateThing: { type: 'object', properties: { enabled: { type: 'boolean', default: true } } },
      UpdateThing: { type: 'object', properties: { enabled: { type: 'boolean', default: true } } },
    };
    const body = (name: string) => ({ requestBody: json({ $ref: `#/components/schemas/${name}` }), responses: {} });
    const things = completeDocument({
      ...explored({ '/admin/v1/things': { post: body('CreateThing') }, '/admin/v1/things/{id}': { patch: body('UpdateThing') } }),
      components: { schemas },
    } as unknown as OpenAPIObject).components!.schemas!;
    expect(things.UpdateThing).toEqual({ type: 'object', properties: { enabled: { type: 'boolean' } } });
    expect(things.CreateThing).toEqual({ type: 'object', properties: { enabled: { type: 'boolean', default: true } } });
  });
});
