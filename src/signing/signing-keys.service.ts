import { ApiProperty } from '@nestjs/swagger';
import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, Repository } from 'typeorm';
import { AdminPrincipal } from '../admin-kernel/admin-principal';
import { ProgramCache } from '../core/cache/program-cache';
import { SecretBox } from '../core/crypto/secret-box';
import { Project } from '../projects/project.entity';
import { ProjectAccess } from '../projects/project-access';
import { ProjectsService } from '../projects/projects.service';
import { generateSigningKey } from './ed25519';
import { SigningKey } from './signing-key.entity';

export const DEFAULT_RETIRE_AFTER_SECONDS = 7 * 86400;

/** The active key as a client route needs it (JSON-safe: it lives in the shared program cache). */
export interface ActiveSigningKey {
  kid: string;
  privateKeyEnc: string;
}

export class SigningKeyView {
  @ApiProperty({ description: 'key id, sent in X-Svc-Response-Key' }) kid!: string;
  @ApiProperty({ description: 'base64 raw Ed25519 public key, to pin in the client program' }) public_key!: string;
  @ApiProperty({ enum: ['active', 'retiring'] }) status!: 'active' | 'retiring';
  @ApiProperty({ type: String, format: 'date-time' }) created_at!: string;
  @ApiProperty({
    ...{ type: String, format: 'date-time' },
    nullable: true,
    description: 'when a retiring key stops being published',
  })
  retire_at!: string | null;
}

/**
 * Per-project Ed25519 keys (decisions §15): one active key; a rotation makes the previous one
 * `retiring` until `retire_at`, after which it is retired and no longer listed. A project gets its
 * first key when it is created, or (projects older than signing) the first time one is needed.
 */
@Injectable()
export class SigningKeysService implements OnModuleInit {
  constructor(
    @InjectRepository(SigningKey) private readonly keys: Repository<SigningKey>,
    private readonly dataSource: DataSource,
    private readonly access: ProjectAccess,
    private readonly projects: ProjectsService,
    private readonly box: SecretBox,
    private readonly programCache: ProgramCache,
  ) {}

  onModuleInit(): void {
    this.projects.onCreated(async (projectId) => void (await this.activeKey(projectId)));
  }

  /** The project's active key, made if it has none (concurrent callers agree on one: a unique index). */
  async activeKey(projectId: string): Promise<ActiveSigningKey> {
    const existing = await this.findActive(projectId);
    if (existing) return existing;
    const { kid, publicKey, privateKeyDer } = generateSigningKey();
    // ON CONFLICT DO NOTHING: a concurrent caller's key won the partial unique index (one active key
    // a project); the kid, a digest of a fresh public key, collides with nothing.
    await this.keys
      .createQueryBuilder()
      .insert()
      .values({ projectId, kid, publicKey, privateKeyEnc: this.box.encrypt(privateKeyDer), status: 'active' })
      .orIgnore()
      .execute();
    return (await this.findActive(projectId))!;
  }

  /** The published keys: the active one and those retiring but not yet retired. */
  async list(actor: AdminPrincipal, projectId: string): Promise<{ items: SigningKeyView[] }> {
    const project = await this.access.find(actor, projectId);
    await this.activeKey(project.id);
    const rows = await this.keys
      .createQueryBuilder('k')
      .where("k.project_id = :id AND (k.status = 'active' OR k.retire_at > now())", { id: project.id })
      .orderBy('k.created_at', 'DESC')
      .addOrderBy('k.id', 'DESC')
      .getMany();
    return { items: rows.map(toView) };
  }

  /** A new active key; the previous one keeps verifying (listed) until `retire_at`. */
  async rotate(
    actor: AdminPrincipal,
    projectId: string,
    retireAfterSeconds = DEFAULT_RETIRE_AFTER_SECONDS,
  ): Promise<SigningKeyView> {
    const project = await this.access.find(actor, projectId);
    await this.activeKey(project.id);
    const { kid, publicKey, privateKeyDer } = generateSigningKey();
    const created = await this.dataSource.transaction(async (em) => {
      // Rotations of one project take turns: exactly one key stays active.
      await em.createQueryBuilder(Project, 'p').setLock('pessimistic_write').where('p.id = :id', { id: project.id }).getOne();
      // The retire time is computed by the database, in the same statement as the status change.
      await em
        .createQueryBuilder()
        .update(SigningKey)
        .set({ status: 'retiring', retireAt: () => 'now() + make_interval(secs => :retireAfterSeconds)' })
        .setParameter('retireAfterSeconds', retireAfterSeconds)
        .where('project_id = :projectId AND status = :active', { projectId: project.id, active: 'active' })
        .execute();
      const key = em.getRepository(SigningKey).create({
        projectId: project.id,
        kid,
        publicKey,
        privateKeyEnc: this.box.encrypt(privateKeyDer),
        status: 'active',
        retireAt: null,
      });
      return em.getRepository(SigningKey).save(key);
    });
    await this.programCache.invalidate(project.programId);
    return toView(created);
  }

  private async findActive(projectId: string): Promise<ActiveSigningKey | null> {
    const row = await this.keys
      .createQueryBuilder('k')
      .select(['k.kid'])
      .addSelect('k.privateKeyEnc')
      .where("k.project_id = :projectId AND k.status = 'active'", { projectId })
      .getOne();
    return row ? { kid: row.kid, privateKeyEnc: row.privateKeyEnc } : null;
  }
}

function toView(key: SigningKey): SigningKeyView {
  return {
    kid: key.kid,
    public_key: key.publicKey,
    status: key.status,
    created_at: key.createdAt.toISOString(),
    retire_at: key.retireAt ? key.retireAt.toISOString() : null,
  };
}
