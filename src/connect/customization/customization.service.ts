import { Injectable } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { AdminPrincipal } from '../../admin-kernel/admin-principal';
import { ProgramCache } from '../../core/cache/program-cache';
import { SecretBox } from '../../core/crypto/secret-box';
import { ErrorCode } from '../../core/errors/error-code';
import { ServiceError } from '../../core/errors/service-error';
import { renderFailure, renderSuccess } from '../../http/envelope/render';
import { applyRenames } from '../../http/envelope/response-renames';
import { ProjectAccess } from '../../projects/project-access';
import { ConnectCustomization } from '../connect-customization.entity';
import { PutCustomizationDto } from './customization.dto';
import {
  CONNECT_FIELDS,
  customToken,
  fieldNameProblems,
  renderTemplate,
  templateProblems,
  TOKEN_PLACEHOLDERS,
  TokenValues,
  usesSecret,
} from './customization-rules';
import type { RequestMemo } from '../../core/request-memo';

export type ClientCustomization = Pick<ConnectCustomization, 'fieldNames' | 'tokenAlgorithm' | 'tokenTemplate' | 'secretEnc'>;

export class CustomizationView {
  @ApiProperty({ description: 'false: the defaults apply' }) customized!: boolean;
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string' },
    description: "renames of the Connect answer's fields",
  })
  field_names!: Record<string, string>;
  @ApiProperty({ type: String, nullable: true }) token_algorithm!: string | null;
  @ApiProperty({ type: String, nullable: true }) token_template!: string | null;
  @ApiProperty({ description: 'a token secret is set (never shown)' }) has_secret!: boolean;
  @ApiProperty({ type: String, format: 'date-time', nullable: true }) updated_at!: string | null;
}

/** Both answers a Connect login of this program would give, with the customization applied. */
export class CustomizationPreview {
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'the success answer' }) success!: unknown;
  @ApiProperty({ type: 'object', additionalProperties: true, description: 'a failure answer' }) failure!: unknown;
}

/** The author's Connect customization of one program: replace, reset, read (never the secret), preview. */
@Injectable()
export class CustomizationService {
  constructor(
    @InjectRepository(ConnectCustomization) private readonly rows: Repository<ConnectCustomization>,
    private readonly access: ProjectAccess,
    private readonly box: SecretBox,
    private readonly programCache: ProgramCache,
  ) {}

  /** The stored customization of a project, for the Connect routes (null = default response). */
  findFor(projectId: string): Promise<ConnectCustomization | null> {
    return this.rows.findOneBy({ projectId });
  }

  /** The customization a Connect request applies, through the program cache (JSON-safe). */
  clientCustomization(program: { id: string; programId: string }, memo?: RequestMemo): Promise<ClientCustomization | null> {
    return this.programCache.through(
      program.programId,
      'connect-customization',
      async () => {
        const row = await this.findFor(program.id);
        return (
          row && {
            fieldNames: row.fieldNames,
            tokenAlgorithm: row.tokenAlgorithm,
            tokenTemplate: row.tokenTemplate,
            secretEnc: row.secretEnc,
          }
        );
      },
      memo,
    );
  }

  /**
   * The owner's success token for these values (template rendered, then hashed or signed with the
   * customization's secret), or null when the program keeps the random token.
   */
  successToken(row: ClientCustomization | null, values: Omit<TokenValues, 'secret'>): string | null {
    if (!row?.tokenAlgorithm || !row.tokenTemplate) return null;
    const secret = row.secretEnc ? this.box.decrypt(row.secretEnc) : null;
    return customToken(row.tokenAlgorithm, renderTemplate(row.tokenTemplate, { ...values, secret: secret ?? '' }), secret);
  }

  async get(actor: AdminPrincipal, projectId: string): Promise<CustomizationView> {
    const project = await this.access.find(actor, projectId);
    return toView(await this.findFor(project.id));
  }

  async put(actor: AdminPrincipal, projectId: string, input: PutCustomizationDto): Promise<CustomizationView> {
    const project = await this.access.find(actor, projectId);
    const existing = await this.findFor(project.id);
    const algorithm = input.token_algorithm ?? null;
    const template = input.token_template ?? null;
    const secretEnc =
      input.secret === undefined ? (existing?.secretEnc ?? null) : input.secret === null ? null : this.box.encrypt(input.secret);

    const problems = fieldNameProblems(input.field_names ?? {});
    if ((algorithm === null) !== (template === null)) problems.push('token_algorithm and token_template: set both, or neither');
    if (template !== null) problems.push(...templateProblems(template));
    if ((algorithm === 'hmac_sha256' || (template !== null && usesSecret(template))) && !secretEnc) {
      problems.push('secret: required by hmac_sha256 and by the {secret} placeholder');
    }
    if (problems.length) {
      throw new ServiceError(ErrorCode.BAD_REQUEST, 'Invalid Connect customization', {
        details: { problems, allowed_fields: CONNECT_FIELDS, allowed_placeholders: TOKEN_PLACEHOLDERS.map((p) => `{${p}}`) },
      });
    }
    await this.rows.save(
      this.rows.create({
        projectId: project.id,
        fieldNames: input.field_names ?? {},
        tokenAlgorithm: algorithm,
        tokenTemplate: template,
        secretEnc,
      }),
    );
    await this.programCache.invalidate(project.programId);
    // Answer the stored row: a save that changes nothing runs no UPDATE and returns no updated_at.
    return toView(await this.rows.findOneByOrFail({ projectId: project.id }));
  }

  async reset(actor: AdminPrincipal, projectId: string): Promise<void> {
    const project = await this.access.find(actor, projectId);
    await this.rows.delete({ projectId: project.id });
    await this.programCache.invalidate(project.programId);
  }

  /** What clients would receive now: a sample success and a sample failure. */
  async preview(actor: AdminPrincipal, projectId: string): Promise<CustomizationPreview> {
    const project = await this.access.find(actor, projectId);
    const row = await this.findFor(project.id);
    const sample = {
      user_key: 'SAMPLE-CARD-KEY',
      serial: 'SAMPLE-DEVICE',
      program_id: project.programId,
      timestamp: '1767225600',
      expires_at: '2026-12-31 23:59:59',
      nonce: 'sample-nonce',
      device_limit: '1',
    };
    const token = this.successToken(row, sample) ?? '<random 43-character token>';
    const data = {
      token,
      expires_at: sample.expires_at,
      expires_at_iso: '2026-12-31T23:59:59+00:00',
      device_limit: 1,
      server_time: 1767225600,
      machine_code: sample.serial,
      announcement: '',
    };
    const renames = row?.fieldNames;
    return {
      success: applyRenames(renderSuccess('connect', { message: 'Login successful', data }, 'sample-request-id'), renames),
      failure: applyRenames(renderFailure('connect', new ServiceError(ErrorCode.CARD_EXPIRED), 'sample-request-id'), renames),
    };
  }
}

function toView(row: ConnectCustomization | null): CustomizationView {
  return {
    customized: row !== null,
    field_names: row?.fieldNames ?? {},
    token_algorithm: row?.tokenAlgorithm ?? null,
    token_template: row?.tokenTemplate ?? null,
    has_secret: Boolean(row?.secretEnc),
    updated_at: row?.updatedAt.toISOString() ?? null,
  };
}
