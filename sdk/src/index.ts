export { Client } from './client';
export type { CardCredentials, CardTopupInput, CheckoutInput, ClientOptions, ConnectLoginInput, UserCredentials } from './client';
export { verifyLicence } from './licence';
export { machineCode, machineCodeFrom, rawMachineId } from './machine-code';
export type { LicenceCheck, LicenceExpectations, LicencePayload } from './licence';
export {
  answerDistrust,
  requestDigest,
  requestDigestInput,
  RESPONSE_SIGNATURE_HEADERS,
  RESPONSE_SIGNATURE_VERSION,
  responseSigningInput,
} from './trust';
export type { ReceivedAnswer, ResponseKeys, SentRequest } from './trust';
export { ClientErrorCode, ErrorCode, SESSION_ENDED_CODES } from './error-codes';
export type { HeartbeatHandle, HeartbeatOptions } from './heartbeat';
export { judge } from './result';
export type {
  ConnectField,
  ConnectFieldNames,
  Family,
  RawAnswer,
  Result,
  SessionEndReason,
  StandardSuccessCode,
  UnbindRefusalReason,
} from './result';
export {
  SIGNATURE_HEADERS,
  hmacSignature,
  hmacSigningInput,
  md5Sign,
  md5SignedFields,
  md5SigningInput,
  newNonce,
  signatureHeaders,
} from './signing';
export type { HmacParts } from './signing';
export type { FetchLike } from './transport';
export { openText, rc4, sealLegacyRequest, sealText } from './legacy-transport';
export type { LegacyTransport, TransportMode } from './legacy-transport';
export * from './types';
