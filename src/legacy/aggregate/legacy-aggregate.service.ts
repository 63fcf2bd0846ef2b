import { Injectable } from '@nestjs/common';
import { ClientCall } from '../../access/client-call';
import { ClientProgram } from '../../access/client-program';
import { InterfaceGate } from '../../access/interface-gate';
import { AppUserCredentialsDto } from '../../app-users/app-users.dto';
import { AppUsersService } from '../../app-users/app-users.service';
import { AppConfig } from '../../config/app-config';
import { unreachable } from '../../common/unreachable';
import { SecretBox } from '../../core/crypto/secret-box';
import { ClientReply } from '../../http/envelope/render';
import { ErrorCode } from '../../core/errors/error-code';
import { ServiceError } from '../../core/errors/service-error';
import { findInputProblem, hasBrokenPercentEncoding } from '../../http/input-rules';
import { FailureLimiter } from '../../core/throttling/failure-limiter';
import { FilesService } from '../../files/files.service';
import { TransportEncryption } from '../../projects/project.entity';
import { LegacyCardsService } from '../cards/legacy-cards.service';
import { LegacyInfoService } from '../info/legacy-info.service';
import { LegacyFields } from '../legacy-fields';
import { validatedFields } from '../legacy-validation';
import { LegacyCardDto, LegacyGetFileDto } from '../legacy.dto';
import { verifyMd5Signature } from '../signing/md5-signature';
import { openLegacyPayload, sealLegacyData } from '../transport/transport-codec';
import { canonicalAction, LEGACY_ACTION_ALIASES, LEGACY_ACTIONS, LegacyAction, MD5_SIGNED_ACTIONS } from './legacy-actions';
import { LegacyFileDownload } from '../legacy-answers';

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * The one answer to every ciphertext that does not open into a request: bad base64, bad padding,
 * a wrong tag, a plaintext that is not UTF-8 or not well-formed fields, an unknown action, another
 * `app`, or a signature that does not verify. One code, one message, one status, so that no answer
 * tells a padding oracle which step failed (docs/security.md).
 */
const TRANSPORT_FAILURE = 'data could not be decrypted and verified';
const transportFailure = () => new ServiceError(ErrorCode.BAD_REQUEST, TRANSPORT_FAILURE, { details: ['data'] });

/**
 * The Legacy V1 aggregate entry (decisions §10). With the project's transport encryption (`rc4`,
 * `aes`) only `app` (clear) and `data` are read from the form; every other field, `api` included,
 * comes from the decrypted `data`, and the answer's `data` is sealed the same way. The MD5
 * signature of the signed actions covers the decrypted fields plus `app`. An alias runs its
 * canonical action, which passes the interface gate under the canonical name (one permission, one
 * quota). Nothing changes before decryption, the action name and the signature have passed.
 */
@Injectable()
export class LegacyAggregateService {
  constructor(
    private readonly cards: LegacyCardsService,
    private readonly users: AppUsersService,
    private readonly info: LegacyInfoService,
    private readonly files: FilesService,
    private readonly gate: InterfaceGate,
    private readonly box: SecretBox,
    private readonly limiter: FailureLimiter,
    private readonly config: AppConfig,
  ) {}

  async handle(call: ClientCall, form: LegacyFields): Promise<ClientReply> {
    const { program } = call;
    const mode = program.project.transportEncryption;
    if (mode === 'none') return this.run(this.authenticatedAction(program, form), call, form);
    const transportKey = this.box.decrypt(program.project.transportKeyEnc);
    const { action, fields } = await this.openRequest(call, mode, transportKey, form);
    const reply = await this.run(action, call, fields);
    return { ...reply, data: sealLegacyData(mode, transportKey, reply.data ?? {}) };
  }

  /**
   * Opens and authenticates an encrypted request. Every failure up to a verified signature is the
   * same TRANSPORT_FAILURE, and failures are limited per client address (TRANSPORT_FAILURES_PER_MINUTE).
   */
  private async openRequest(
    call: ClientCall,
    mode: Exclude<TransportEncryption, 'none'>,
    transportKey: string,
    form: LegacyFields,
  ) {
    const policy = { name: 'transport', limit: this.config.TRANSPORT_FAILURES_PER_MINUTE, failure: ErrorCode.BAD_REQUEST };
    return this.limiter.guard(policy, { address: call.ip }, async () => {
      try {
        const fields = openFields(mode, transportKey, form);
        return { action: this.authenticatedAction(call.program, fields), fields };
      } catch (error) {
        if (error instanceof ServiceError) throw transportFailure();
        throw error;
      }
    });
  }

  /** The action named by `api`, once the MD5 signature of a signed action has passed. */
  private authenticatedAction(program: ClientProgram, fields: LegacyFields): LegacyAction {
    const action = actionOf(fields);
    if (MD5_SIGNED_ACTIONS.has(action)) verifyMd5Signature(fields, this.box.decrypt(program.project.legacySecretEnc));
    return action;
  }

  private async run(action: LegacyAction, call: ClientCall, fields: LegacyFields): Promise<ClientReply> {
    switch (action) {
      case 'card_login': {
        const body = await validatedFields(LegacyCardDto, fields);
        return this.cards.login(call, body.kami, body.imei);
      }
      case 'card_unbind': {
        const body = await validatedFields(LegacyCardDto, fields);
        return this.cards.unbind(call, body.kami, body.imei);
      }
      case 'user_login':
        return {
          message: 'Login successful',
          data: await this.users.compatLogin(call, await validatedFields(AppUserCredentialsDto, fields)),
        };
      case 'user_register':
        return {
          message: 'Registration successful',
          data: await this.users.register(call, await validatedFields(AppUserCredentialsDto, fields)),
        };
      case 'announcement':
        return this.info.announcement(call);
      case 'app_config':
        return this.info.appConfig(call, fields.token);
      case 'app_profile':
        return this.info.appProfile(call);
      case 'get_file': {
        const body = await validatedFields(LegacyGetFileDto, fields);
        await this.gate.admit(call, 'get_file');
        return {
          message: 'ok',
          data: (await this.files.issueDownload(call.program.project.id, body.file_id)) satisfies LegacyFileDownload,
        };
      }
      default:
        return unreachable(action, 'legacy action');
    }
  }
}

/** The canonical action named by `api`, or BAD_REQUEST listing the known ones. */
function actionOf(fields: LegacyFields): LegacyAction {
  const action = canonicalAction(fields.api);
  if (action) return action;
  const known = [...LEGACY_ACTIONS, ...Object.keys(LEGACY_ACTION_ALIASES)].join(', ');
  throw new ServiceError(ErrorCode.BAD_REQUEST, `Unknown api action; use one of ${known}`, { details: ['api'] });
}

/**
 * The fields of a transport-encrypted request: `data` must be base64 that decrypts to UTF-8
 * url-encoded fields that pass the input boundary's rules; `app` stays the clear one (a different
 * `app` inside is refused). Any failure throws; the caller turns it into TRANSPORT_FAILURE.
 */
function openFields(mode: Exclude<TransportEncryption, 'none'>, transportKey: string, form: LegacyFields): LegacyFields {
  const data = (form.data ?? '').replace(/\s/g, '');
  if (!data || !BASE64.test(data)) throw transportFailure();
  let plain: string;
  try {
    plain = new TextDecoder('utf-8', { fatal: true }).decode(openLegacyPayload(mode, transportKey, data));
  } catch {
    throw transportFailure();
  }
  if (hasBrokenPercentEncoding(plain)) throw transportFailure();
  const inner: LegacyFields = Object.fromEntries(new URLSearchParams(plain));
  if (findInputProblem(inner, 'data') || (inner.app !== undefined && inner.app.trim() !== form.app.trim()))
    throw transportFailure();
  return { ...inner, app: form.app };
}
