import { ClientErrorCode, SESSION_ENDED_CODES } from './error-codes';
import { HeartbeatHandle, HeartbeatLoop, HeartbeatOptions } from './heartbeat';
import { ConnectFieldNames, Family, judge, Result, StandardSuccessCode } from './result';
import { newNonce, signatureHeaders } from './signing';
import { LEGACY_CARD_LOGIN, LEGACY_UNBIND, LegacyAction, legacyCardCall, openLegacyResult } from './legacy-call';
import { LegacyTransport } from './legacy-transport';
import { Call, FetchLike, send, TransportOptions } from './transport';
import { answerDistrust, ResponseKeys } from './trust';
import { LicenceCheck, verifyLicence } from './licence';
import {
  CardInfoData,
  CardTopupData,
  CardTrialData,
  CardUnbindData,
  ConnectLoginData,
  HeartbeatData,
  LegacyLoginData,
  LegacyUnbindData,
  SdkCardLoginData,
  Session,
  StandardCardData,
  UserLoginData,
  UserRegisterData,
  VersionData,
  CheckoutData,
} from './types';

export interface ClientOptions {
  /** The service's address, e.g. `https://licence.example.com` (no route path). */
  baseUrl: string;
  /** The public program ID (8 digits), never the internal project key. */
  programId: string;
  /** The project's api_secret: signs V3 and SDK requests. */
  apiSecret: string;
  /** The project's legacy_secret: needed only by the `legacy` helpers. */
  legacySecret?: string;
  /**
   * The project's transport encryption (`transport_encryption` and `transport_key`), when it is not
   * `none`: the legacy helpers then go through the aggregate entry `/api/app`, encrypted both ways.
   */
  legacyTransport?: LegacyTransport;
  /** The program's Connect field names, when its author customized them. */
  connectFieldNames?: ConnectFieldNames;
  /** Per attempt; default 10 s. */
  timeoutMs?: number;
  /** Further attempts after a network failure of an idempotent call; default 2. */
  retries?: number;
  /** First backoff delay, doubled each attempt; default 250 ms. */
  retryDelayMs?: number;
  /** A fetch implementation; default the global fetch of Node ≥ 18. */
  fetch?: FetchLike;
  /**
   * The author's response-signing public keys (kid → base64url, from the admin API's
   * signing-keys), compiled into the program. When set, every answer must carry a valid Ed25519
   * signature of one of them over this request, else it is UNTRUSTED_RESPONSE, never a success.
   */
  responseKeys?: ResponseKeys;
  /** Allowed distance between the answer's signing time and this machine's clock; default 300 s. */
  responseMaxSkewSeconds?: number;
}

export interface CheckoutInput extends CardCredentials {
  /** Wanted licence lifetime; the service caps it at the program's offline_grace_seconds. */
  ttlSeconds?: number;
}

export interface CardTopupInput {
  /** The card to renew. */
  cardKey: string;
  /** An unused card of the same program and kind; it is consumed by the top-up. */
  topupKey: string;
}

export interface CardCredentials {
  cardKey: string;
  machineId: string;
}

export interface UserCredentials {
  username: string;
  password: string;
  machineId: string;
}

export interface ConnectLoginInput {
  cardKey: string;
  serial: string;
  /**
   * Replay protection. Default: a fresh random nonce per attempt. A string of your own is sent as
   * is and never retried (the service answers a repeat with 409); `false` sends none.
   */
  nonce?: string | false;
}

const DEFAULT_HEARTBEAT_MS = 60_000;
const FORM = 'application/x-www-form-urlencoded';
const JSON_TYPE = 'application/json';

/**
 * The official client of the card-key login service. It signs requests as the service verifies
 * them, applies each family's success rule, holds the session of an SDK card or user login, and
 * keeps it alive with a heartbeat loop.
 */
export class Client {
  /** The legacy V1 card routes (MD5-signed); need `legacySecret`. */
  readonly legacy: {
    cardLogin: (input: CardCredentials) => Promise<Result<LegacyLoginData>>;
    unbind: (input: CardCredentials) => Promise<Result<LegacyUnbindData>>;
  };

  private readonly transport: TransportOptions;
  private current: Session | undefined;
  private loop: HeartbeatLoop | undefined;

  constructor(private readonly options: ClientOptions) {
    requireText(options.baseUrl, 'baseUrl');
    if (!/^https?:\/\//i.test(options.baseUrl)) throw new TypeError('baseUrl must be an http or https address');
    requireText(options.programId, 'programId');
    requireText(options.apiSecret, 'apiSecret');
    if (options.legacyTransport) {
      if (!['rc4', 'aes', 'aes-gcm'].includes(options.legacyTransport.mode))
        throw new TypeError("legacyTransport.mode must be 'rc4', 'aes' or 'aes-gcm'");
      requireText(options.legacyTransport.key, 'legacyTransport.key');
    }
    const fetchImpl = options.fetch ?? (globalThis.fetch as unknown as FetchLike | undefined);
    if (!fetchImpl) throw new TypeError('No fetch available: use Node 18 or later, or pass options.fetch');
    this.transport = {
      baseUrl: options.baseUrl,
      fetch: fetchImpl,
      timeoutMs: options.timeoutMs ?? 10_000,
      retries: options.retries ?? 2,
      retryDelayMs: options.retryDelayMs ?? 250,
    };
    this.legacy = {
      cardLogin: (input) => this.legacyCall<LegacyLoginData>(LEGACY_CARD_LOGIN, input),
      unbind: (input) => this.legacyCall<LegacyUnbindData>(LEGACY_UNBIND, input),
    };
  }

  /** The session held after an SDK card or user login, if any. */
  get session(): Session | undefined {
    return this.current ? { ...this.current } : undefined;
  }

  /**
   * Takes up a session kept from an earlier run (e.g. `client.session` saved at exit), so a program
   * that restarts can go on heartbeating without a new login. The next heartbeat tells whether the
   * service still accepts it; if not, the session is cleared as usual.
   */
  restoreSession(session: Session): void {
    if (session.type !== 'card' && session.type !== 'app_user') throw new TypeError("session.type must be 'card' or 'app_user'");
    requireText(session.token, 'session.token');
    requireText(session.machineId, 'session.machineId');
    this.current = { ...session };
  }

  /** Forgets the session and stops the heartbeat loop (the session itself simply expires). */
  clearSession(): void {
    this.current = undefined;
    this.stopHeartbeat();
  }

  /** SDK card login (`/api/v1/cards/login`): on success the client holds a card session. */
  async cardLogin(input: CardCredentials): Promise<Result<SdkCardLoginData>> {
    const result = bound(
      topLevelIntoData(
        await this.signedJson<SdkCardLoginData>(
          '/api/v1/cards/login',
          { card_key: input.cardKey, machine_id: input.machineId },
          true,
        ),
      ),
      cardNamed(input.machineId, input.cardKey),
    );
    if (result.success && result.data)
      this.hold('card', input.machineId, result.data, typeof result.data.id === 'number' ? { cardId: result.data.id } : {});
    return result;
  }

  /**
   * This device's one trial card (`/api/v1/cards/trial`, decisions §21), already bound to it: log
   * in with `data.code`. A repeat answers the same card while it is valid, then TRIAL_USED; safe to retry.
   */
  async cardTrial(input: { machineId: string }): Promise<Result<CardTrialData>> {
    const result = await this.signedJson<CardTrialData>('/api/v1/cards/trial', { machine_id: input.machineId }, true);
    return bound(result, [{ field: 'machine_code', value: input.machineId, what: 'device', required: true }]);
  }

  /** An offline licence for this bound device (`/api/v1/cards/checkout`); keep it to run through an outage. */
  cardCheckout(input: CheckoutInput): Promise<Result<CheckoutData>> {
    const payload: Record<string, unknown> = { card_key: input.cardKey, machine_id: input.machineId };
    if (input.ttlSeconds !== undefined) payload.ttl_seconds = input.ttlSeconds;
    return this.signedJson<CheckoutData>('/api/v1/cards/checkout', payload, true);
  }

  /**
   * Checks a kept offline licence for this program and device without a network (pinned
   * `responseKeys` needed). Use it when a login answers NETWORK_ERROR; never when the service
   * answered a refusal: a banned card must stop.
   */
  checkLicence(licence: string, input: CardCredentials, now?: number): LicenceCheck {
    if (!this.options.responseKeys) throw new TypeError('checkLicence needs options.responseKeys');
    return verifyLicence(licence, {
      keys: this.options.responseKeys,
      programId: this.options.programId,
      machineId: input.machineId,
      cardKey: input.cardKey,
      now,
    });
  }

  /**
   * Renews a card with a second, unused card of the same program and kind (`/api/v1/cards/topup`,
   * decisions §13); `data` is the renewed card. Refused with nothing changed as TOPUP_REFUSED (the
   * reason in `message`). Never retried: a repeat would find the top-up card consumed.
   */
  cardTopup(input: CardTopupInput): Promise<Result<CardTopupData>> {
    return this.signedJson<CardTopupData>(
      '/api/v1/cards/topup',
      { card_key: input.cardKey, topup_key: input.topupKey },
      false,
      0,
    );
  }

  /** The card as its holder sees it (`/api/v1/cards/info`): state, uses, seats, bound devices, unbind rules. */
  cardInfo(input: { cardKey: string }): Promise<Result<CardInfoData>> {
    return this.signedJson<CardInfoData>('/api/v1/cards/info', { card_key: input.cardKey }, true, 0);
  }

  /**
   * The holder's unbind of one device (`/api/v1/cards/unbind`, decisions §14): its success answers
   * `code: 1`, the standard family's unbind code, and only that is a success here. It may take
   * `unbind.deduct_seconds` off the card and ends that device's sessions (a session this client
   * holds on it then ends at its next heartbeat). Never retried: each unbind may deduct time.
   */
  async cardUnbind(input: CardCredentials): Promise<Result<CardUnbindData>> {
    const result = await this.signedJson<CardUnbindData>(
      '/api/v1/cards/unbind',
      { card_key: input.cardKey, machine_id: input.machineId },
      false,
      1,
    );
    return bound(result, cardNamed(input.machineId, input.cardKey));
  }

  /** Renews the held card session; SESSION_INVALID or SESSION_TYPE_MISMATCH clears it. */
  cardHeartbeat(): Promise<Result<HeartbeatData>> {
    return this.heartbeat('card');
  }

  /** SDK program-user registration; never retried (a repeat would find the name taken). */
  userRegister(input: UserCredentials): Promise<Result<UserRegisterData>> {
    return this.signedJson<UserRegisterData>('/api/v1/users/register', userFields(input), false);
  }

  /** SDK program-user login: on success the client holds a user session on the bound machine. */
  async userLogin(input: UserCredentials): Promise<Result<UserLoginData>> {
    const result = await this.signedJson<UserLoginData>('/api/v1/users/login', userFields(input), true);
    const userId = result.data?.profile?.user_id;
    if (result.success && result.data)
      this.hold('app_user', result.data.machine_id ?? input.machineId, result.data, typeof userId === 'number' ? { userId } : {});
    return result;
  }

  /** Renews the held user session; SESSION_INVALID or SESSION_TYPE_MISMATCH clears it. */
  userHeartbeat(): Promise<Result<HeartbeatData>> {
    return this.heartbeat('app_user');
  }

  /** SDK version check (`/api/v1/apps/version`). */
  checkVersion(input: { version: string }): Promise<Result<VersionData>> {
    return this.signedJson<VersionData>('/api/v1/apps/version', { version: input.version }, true);
  }

  /** HTTP V3 card login: a compatible token, no session. */
  async v3CardLogin(input: CardCredentials): Promise<Result<StandardCardData>> {
    const path = '/api/legacy/v3/cards/login';
    const body = new URLSearchParams({ app: this.options.programId, kami: input.cardKey, imei: input.machineId }).toString();
    const result = await this.call<StandardCardData>('standard', {
      method: 'POST',
      path,
      idempotent: true,
      build: () => signed(this.headers(FORM), signatureHeaders(this.options.apiSecret, { method: 'POST', path, body }), body),
    });
    return bound(topLevelIntoData(result), cardNamed(input.machineId, input.cardKey));
  }

  /** Connect login (`/connect/{program_id}`): unsigned, with a fresh nonce per attempt by default. */
  async connectLogin(input: ConnectLoginInput): Promise<Result<ConnectLoginData>> {
    const fixedNonce = typeof input.nonce === 'string';
    const result = await this.call<ConnectLoginData>('connect', {
      method: 'POST',
      path: `/connect/${encodeURIComponent(this.options.programId)}`,
      idempotent: !fixedNonce,
      build: () => {
        const fields: Record<string, string> = { user_key: input.cardKey, serial: input.serial };
        if (input.nonce !== false) fields.nonce = fixedNonce ? (input.nonce as string) : newNonce();
        return { headers: this.headers(FORM), body: new URLSearchParams(fields).toString(), nonce: fields.nonce };
      },
    });
    // Connect's success carries the device (`machine_code`, read back from a customized name) but not the card.
    return bound(result, [{ field: 'machine_code', value: input.serial, what: 'device', required: true }]);
  }

  /**
   * Heartbeats the held session every `intervalMs` until it ends, the client clears it or the
   * handle is stopped. One loop per client: starting another stops the previous one.
   */
  startHeartbeat(options: HeartbeatOptions = {}): HeartbeatHandle {
    if (!this.current) throw new Error('startHeartbeat needs a session: log in with cardLogin or userLogin first');
    this.stopHeartbeat();
    const fromServer = this.current.heartbeatIntervalSeconds;
    const intervalMs = options.intervalMs ?? (fromServer ? fromServer * 1000 : DEFAULT_HEARTBEAT_MS);
    if (!(intervalMs > 0)) throw new RangeError('intervalMs must be a positive number of milliseconds');
    this.loop = new HeartbeatLoop(
      async () => (this.current ? this.heartbeat(this.current.type) : undefined),
      intervalMs,
      options,
    );
    return this.loop;
  }

  private stopHeartbeat(): void {
    this.loop?.stop();
    this.loop = undefined;
  }

  private async heartbeat(type: Session['type']): Promise<Result<HeartbeatData>> {
    const session = this.current;
    if (!session || session.type !== type) {
      return {
        success: false,
        code: ClientErrorCode.NO_SESSION,
        message: `No ${type === 'card' ? 'card' : 'user'} session: log in first`,
      };
    }
    const path = type === 'card' ? '/api/v1/cards/heartbeat' : '/api/v1/users/heartbeat';
    const body = JSON.stringify({ machine_id: session.machineId });
    const sent = await this.call<HeartbeatData>('standard', {
      method: 'POST',
      path,
      idempotent: true,
      // A nonce binds the signed answer to this heartbeat: an old answer cannot be replayed.
      build: () => {
        const nonce = newNonce();
        return {
          headers: { ...this.headers(JSON_TYPE), Authorization: `Bearer ${session.token}`, 'X-Svc-Nonce': nonce },
          body,
          nonce,
        };
      },
    });
    // The token travels in a header, outside the signed digest: the answer must name this session's card or user.
    const owner = type === 'card' ? { field: 'card_id', value: session.cardId } : { field: 'user_id', value: session.userId };
    const result =
      owner.value === undefined
        ? sent
        : bound(sent, [{ field: owner.field, value: owner.value, what: type === 'card' ? 'card' : 'user', required: true }]);
    if (this.current === session) {
      if (result.success && typeof result.data?.session_expires_at === 'string')
        session.expiresAt = result.data.session_expires_at;
      if (!result.success && SESSION_ENDED_CODES.includes(result.code)) {
        this.current = undefined;
        this.loop?.end(result); // also when a direct call, not the loop, met the end
        this.loop = undefined;
      }
    }
    return result;
  }

  private hold(
    type: Session['type'],
    machineId: string,
    data: { session_token: string; session_expires_at: string; heartbeat_interval_seconds?: number },
    owner: Pick<Session, 'cardId' | 'userId'>,
  ): void {
    this.current = {
      type,
      token: data.session_token,
      machineId,
      expiresAt: data.session_expires_at,
      ...(typeof data.heartbeat_interval_seconds === 'number'
        ? { heartbeatIntervalSeconds: data.heartbeat_interval_seconds }
        : {}),
      ...owner,
    };
  }

  /**
   * An SDK request: JSON with `app` in the body, HMAC-signed afresh for each attempt. `successCode`
   * is the route's own success code where its contract fixes one (see `judge`).
   */
  private signedJson<T>(
    path: string,
    payload: Record<string, unknown>,
    idempotent: boolean,
    successCode?: StandardSuccessCode,
  ): Promise<Result<T>> {
    const body = JSON.stringify({ app: this.options.programId, ...payload });
    const call: Call = {
      method: 'POST',
      path,
      idempotent,
      build: () =>
        signed(this.headers(JSON_TYPE), signatureHeaders(this.options.apiSecret, { method: 'POST', path, body }), body),
    };
    return this.call<T>('standard', call, successCode);
  }

  /** Throws at once (not in the promise) without a legacySecret: a programming error, as before. */
  private legacyCall<T>(action: LegacyAction, input: CardCredentials): Promise<Result<T>> {
    const legacySecret = this.options.legacySecret;
    if (!legacySecret) throw new TypeError('The legacy helpers need options.legacySecret');
    const { programId, legacyTransport: transport } = this.options;
    const call = legacyCardCall(action, {
      programId,
      cardKey: input.cardKey,
      machineId: input.machineId,
      legacySecret,
      transport,
    });
    return this.call<T>('legacy', call).then((result) =>
      bound(openLegacyResult(result, transport), cardNamed(input.machineId, input.cardKey)),
    );
  }

  private async call<T>(family: Family, call: Call, successCode?: StandardSuccessCode): Promise<Result<T>> {
    const sent = await send(this.transport, call);
    if (!sent.ok) return sent.failure;
    const keys = this.options.responseKeys;
    if (keys) {
      const answer = {
        status: sent.answer.status,
        headers: sent.answer.headers,
        body: sent.answer.bytes ?? Buffer.from(sent.answer.text, 'utf8'),
      };
      const distrust = answerDistrust(
        answer,
        { method: call.method, path: call.path, nonce: sent.nonce, digested: sent.digested },
        keys,
        this.options.responseMaxSkewSeconds,
      );
      if (distrust)
        return {
          success: false,
          code: ClientErrorCode.UNTRUSTED_RESPONSE,
          message: `Untrusted answer: ${distrust}`,
          httpStatus: sent.answer.status,
        };
    }
    return judge<T>(family, sent.answer, this.options.connectFieldNames, successCode);
  }

  private headers(contentType: string): Record<string, string> {
    return { 'Content-Type': contentType, Accept: JSON_TYPE };
  }
}

/** A signed request's headers and body, with the nonce it carries (the signed answer echoes it). */
function signed(
  base: Record<string, string>,
  signature: Record<string, string>,
  body: string,
): { headers: Record<string, string>; body: string; nonce: string } {
  return { headers: { ...base, ...signature }, body, nonce: signature['X-Svc-Nonce'] };
}

/** A field of a success's `data` that must hold what this client sent; `required`: absent is a mismatch too. */
interface Named {
  field: string;
  value: string | number;
  what: string;
  required: boolean;
}

/** A card answer names the device sent (`machine_code`) and, where it carries it, the card (`code`). */
function cardNamed(machineId: string, cardKey: string): Named[] {
  return [
    { field: 'machine_code', value: machineId, what: 'device', required: true },
    { field: 'code', value: cardKey, what: 'card', required: false },
  ];
}

/**
 * decisions §17: a success that names another device, card or session owner than this client's
 * is not the answer to what it sent (a relay swapped them): UNTRUSTED_RESPONSE, never a success.
 * The message names what differs, never the values.
 */
function bound<T>(result: Result<T>, named: Named[]): Result<T> {
  if (!result.success) return result;
  const data = (result.data ?? {}) as Record<string, unknown>;
  const other = named.find(({ field, value, required }) => (data[field] === undefined ? required : data[field] !== value));
  if (!other) return result;
  return {
    success: false,
    code: ClientErrorCode.UNTRUSTED_RESPONSE,
    message: `Untrusted answer: it is for another ${other.what} than the one sent`,
    ...(result.requestId ? { requestId: result.requestId } : {}),
    ...(result.httpStatus !== undefined ? { httpStatus: result.httpStatus } : {}),
  };
}

/** The standard family's card logins carry `token` and `statecode` at the top level: offer them in `data` too. */
function topLevelIntoData<T extends object>(result: Result<T>): Result<T> {
  if (!result.success || !result.data || !result.body) return result;
  const { token, statecode } = result.body;
  return {
    ...result,
    data: { ...result.data, ...(token !== undefined ? { token } : {}), ...(statecode !== undefined ? { statecode } : {}) },
  };
}

function userFields(input: UserCredentials): Record<string, string> {
  return { username: input.username, password: input.password, machine_id: input.machineId };
}

function requireText(value: unknown, name: string): void {
  if (typeof value !== 'string' || value.length === 0)
    throw new TypeError(`${name.includes('.') ? name : `options.${name}`} is required`);
}
