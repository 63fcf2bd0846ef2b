import { ClientErrorCode } from './error-codes';
import { LegacyTransport, openText, sealLegacyRequest } from './legacy-transport';
import { Result } from './result';
import { md5SignedFields, newNonce } from './signing';
import { Call } from './transport';

/** A legacy card action: its dedicated route, and its canonical `api` name at the aggregate entry. */
export interface LegacyAction {
  path: '/api/card_login' | '/api/unbind_machine';
  api: 'card_login' | 'card_unbind';
  idempotent: boolean;
}

export const LEGACY_CARD_LOGIN: LegacyAction = { path: '/api/card_login', api: 'card_login', idempotent: true };
export const LEGACY_UNBIND: LegacyAction = { path: '/api/unbind_machine', api: 'card_unbind', idempotent: false };

const FORM = 'application/x-www-form-urlencoded';

/**
 * An MD5-signed legacy card call, signed afresh per attempt. Without transport encryption it goes to
 * the action's dedicated route in plain fields; with it, to the aggregate entry `/api/app` as
 * `app` (clear) + `data` (the encrypted fields with `api`, `t` and `sign`: docs/protocol.md 5.5).
 */
export function legacyCardCall(
  action: LegacyAction,
  input: { programId: string; cardKey: string; machineId: string; legacySecret: string; transport?: LegacyTransport },
): Call {
  const headers = { 'Content-Type': FORM, Accept: 'application/json' };
  const fields = { app: input.programId, kami: input.cardKey, imei: input.machineId };
  const transport = input.transport;
  if (!transport) {
    return {
      method: 'POST',
      path: action.path,
      idempotent: action.idempotent,
      build: () => {
        const signed = md5SignedFields({ ...fields, nonce: newNonce() }, input.legacySecret);
        return { headers, body: new URLSearchParams(signed).toString(), nonce: signed.nonce };
      },
    };
  }
  return {
    method: 'POST',
    path: '/api/app',
    idempotent: action.idempotent,
    build: () => {
      const signed = md5SignedFields({ api: action.api, ...fields, nonce: newNonce() }, input.legacySecret);
      const body = new URLSearchParams({ app: input.programId, data: sealLegacyRequest(transport, signed) }).toString();
      // The service signs its answer before it opens `data`, so with no clear nonce: REQUEST_NONCE is
      // empty. The fresh nonce inside the ciphertext still binds the answer, through REQUEST_DIGEST.
      return { headers, body, nonce: '' };
    },
  };
}

/**
 * A successful answer of an encrypted program carries `data` sealed the same way: opened here, so
 * the caller sees the same `data` object as without encryption. A `data` that does not open with
 * the key is not this service's answer for this program: UNEXPECTED_RESPONSE, never a success.
 */
export function openLegacyResult<T>(result: Result<T>, transport: LegacyTransport | undefined): Result<T> {
  const sealed = result.body?.data;
  if (!transport || !result.success || typeof sealed !== 'string') return result;
  try {
    const data = JSON.parse(openText(transport, sealed)) as T;
    return { ...result, data, body: { ...result.body, data } };
  } catch {
    return {
      success: false,
      code: ClientErrorCode.UNEXPECTED_RESPONSE,
      message: "The answer's data does not open with the transport key (wrong legacyTransport?)",
      ...(result.requestId ? { requestId: result.requestId } : {}),
      ...(result.httpStatus !== undefined ? { httpStatus: result.httpStatus } : {}),
    };
  }
}
