import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { randomInt } from 'node:crypto';
import { Repository } from 'typeorm';
import { AdminPrincipal, isPlatformAdmin } from '../admin-kernel/admin-principal';
import { AdminUser } from '../admin-kernel/admin-user.entity';
import { Page, pageOf } from '../common/paging';
import { SecretBox } from '../core/crypto/secret-box';
import { ErrorCode } from '../core/errors/error-code';
import { ServiceError } from '../core/errors/service-error';
import { isForeignKeyViolation, isUniqueViolation } from '../database/pg-errors';
import { PlatformService } from '../platform/platform.service';
import { ProgramCache } from '../core/cache/program-cache';
import { Project } from './project.entity';
import { CreateProjectDto, EntitlementsDto, ListProjectsQuery, ProjectSettingsDto, UpdateProjectDto } from './project.dto';
import { generateSecret, isSecretName, SECRET_COLUMNS, SECRET_NAMES, SecretName } from './project-secrets';
import { toProjectView, ProjectView } from './project.view';
import { ProjectAccess } from './project-access';
import { noteChange } from '../common/audit-note';
import { ProjectOrdersSettlement } from './project-orders-settlement';
import { TrialCardTypes } from './trial-card-types';

const PROGRAM_ID_ATTEMPTS = 8;
const ENTITLEMENT_FIELDS = ['basic_package', 'plan_level', 'licence_verify'] as const;

/** Projects (client programs) of authors: creation with secrets, settings, entitlements, rotation. */
@Injectable()
export class ProjectsService {
  private readonly removalListeners: Array<(projectId: string) => Promise<void>> = [];
  private readonly creationListeners: Array<(projectId: string) => Promise<void>> = [];

  constructor(
    @InjectRepository(Project) private readonly projects: Repository<Project>,
    @InjectRepository(AdminUser) private readonly users: Repository<AdminUser>,
    private readonly access: ProjectAccess,
    private readonly box: SecretBox,
    private readonly platform: PlatformService,
    private readonly programCache: ProgramCache,
    private readonly orders: ProjectOrdersSettlement,
    private readonly trialTypes: TrialCardTypes,
  ) {}

  /** Creates a project; the only answer that shows its secrets in clear. */
  async create(actor: AdminPrincipal, input: CreateProjectDto): Promise<ProjectView> {
    const ownerId = await this.ownerFor(actor, input.owner_id);
    if (input.connect_enabled) await this.assertSelfServiceConnect();
    // A new project has no card types yet: any type named is another project's.
    if (input.trial_card_type_id != null) throw trialTypeNotFound();
    const secrets = Object.fromEntries(SECRET_NAMES.map((n) => [n, generateSecret(n)])) as Record<SecretName, string>;
    const project = this.projects.create({ name: input.name, ownerId, ipBindings: [] });
    applySettings(project, input);
    for (const name of SECRET_NAMES) project[SECRET_COLUMNS[name]] = this.box.encrypt(secrets[name]);
    for (let attempt = 1; ; attempt++) {
      project.programId = String(randomInt(10_000_000, 100_000_000));
      try {
        const saved = await this.projects.save(project);
        for (const listener of this.creationListeners) await listener(saved.id);
        return toProjectView(saved, this.box, await this.platform.getSettings(), secrets);
      } catch (error) {
        // The program ID is random: on the rare collision, draw again.
        if (!isUniqueViolation(error) || attempt >= PROGRAM_ID_ATTEMPTS) throw error;
        project.id = undefined as unknown as string;
      }
    }
  }

  async list(actor: AdminPrincipal, query: ListProjectsQuery): Promise<Page<ProjectView>> {
    const qb = this.projects.createQueryBuilder('p');
    if (!isPlatformAdmin(actor)) qb.where('p.owner_id = :me', { me: actor.id });
    else if (query.owner_id) qb.where('p.owner_id = :owner', { owner: query.owner_id });
    if (query.status) qb.andWhere('p.status = :status', { status: query.status });
    if (query.q) {
      qb.andWhere("(p.name ILIKE :like ESCAPE '\\' OR p.program_id = :q)", {
        like: `%${query.q.replace(/[\\%_]/g, '\\$&')}%`,
        q: query.q,
      });
    }
    const [rows, total] = await qb.orderBy('p.created_at', 'DESC').skip(query.skip).take(query.page_size).getManyAndCount();
    const platform = await this.platform.getSettings();
    return pageOf(
      rows.map((p) => toProjectView(p, this.box, platform)),
      total,
      query,
    );
  }

  async get(actor: AdminPrincipal, id: string): Promise<ProjectView> {
    const project = await this.access.find(actor, id);
    return toProjectView(project, this.box, await this.platform.getSettings());
  }

  async update(actor: AdminPrincipal, id: string, input: UpdateProjectDto): Promise<ProjectView> {
    const project = await this.access.find(actor, id);
    const before = toProjectView(project, this.box, await this.platform.getSettings());
    const entitlementFields = ENTITLEMENT_FIELDS.filter((f) => input[f] !== undefined);
    if (entitlementFields.length && !isPlatformAdmin(actor)) {
      throw new ServiceError(ErrorCode.FORBIDDEN, 'Entitlements are set by the platform admin', { details: entitlementFields });
    }
    if (input.connect_enabled !== undefined && input.connect_enabled !== project.connectEnabled)
      await this.assertSelfServiceConnect();
    if (input.name !== undefined) project.name = input.name;
    if (input.trial_card_type_id != null) await this.assertTrialType(project.id, input.trial_card_type_id);
    applySettings(project, input);
    applyEntitlements(project, input);
    const after = await this.saveAndView(project);
    noteChange(actor, { before, after });
    return after;
  }

  /**
   * Deletes a project with its cards, users and logs. Its agents' money is settled first, in the
   * same transaction: unused order cards are refunded (and the parents' commission on them clawed
   * back) and the orders kept. A clawback a parent's balance no longer covers refuses the whole
   * deletion (INSUFFICIENT_BALANCE), as it refuses a card's. The project's row is locked first:
   * an order in flight (its keys hold the row) finishes before, and one that starts after waits
   * and then finds no project.
   */
  async remove(actor: AdminPrincipal, id: string): Promise<void> {
    const project = await this.access.find(actor, id);
    const settled = await this.projects.manager.transaction(async (em) => {
      const locked = await em.getRepository(Project).findOne({ where: { id: project.id }, lock: { mode: 'pessimistic_write' } });
      if (!locked) throw new ServiceError(ErrorCode.PROJECT_NOT_FOUND);
      const totals = await this.orders.settle(em, project.id, actor.id);
      await em.getRepository(Project).delete({ id: project.id });
      return totals;
    });
    if (settled.cardIds.length)
      noteChange(actor, {
        resourceId: project.id,
        before: { name: project.name },
        after: {
          refunded_cards: settled.cardIds.length,
          refunded_cents: settled.refundedCents,
          clawback_cents: settled.clawbackCents,
        },
      });
    await this.programCache.invalidate(project.programId);
    for (const listener of this.removalListeners) await listener(project.id);
  }

  /**
   * Lets a module that keeps a project's data outside the database (the files module's bytes on
   * disk) clean up after a deletion, without this module depending on it. Rows go by cascade.
   */
  onRemoved(listener: (projectId: string) => Promise<void>): void {
    this.removalListeners.push(listener);
  }

  /** Lets a module that owns per-project data (the signing keys) create it with the project. */
  onCreated(listener: (projectId: string) => Promise<void>): void {
    this.creationListeners.push(listener);
  }

  /** Replaces one secret; the new value is shown once, and the old one stops working at once. */
  async rotateSecret(actor: AdminPrincipal, id: string, name: string): Promise<{ name: SecretName; value: string }> {
    if (!isSecretName(name)) {
      throw new ServiceError(ErrorCode.SECRET_NOT_FOUND, undefined, { details: { name, allowed: SECRET_NAMES } });
    }
    const secretName = name;
    const project = await this.access.find(actor, id);
    const value = generateSecret(secretName);
    await this.projects.update({ id: project.id }, { [SECRET_COLUMNS[secretName]]: this.box.encrypt(value) });
    await this.programCache.invalidate(project.programId);
    return { name: secretName, value };
  }

  async setEntitlements(actor: AdminPrincipal, id: string, input: EntitlementsDto): Promise<ProjectView> {
    const project = await this.access.find(actor, id);
    applyEntitlements(project, input);
    return this.saveAndView(project);
  }

  /** The author's Connect switch; refused unless the platform's opening mode is self_service. */
  async setConnectEnabled(actor: AdminPrincipal, id: string, enabled: boolean): Promise<ProjectView> {
    const project = await this.access.find(actor, id);
    await this.assertSelfServiceConnect();
    project.connectEnabled = enabled;
    return this.saveAndView(project);
  }

  /** Saves a changed project and drops what client routes cached of it. */
  private async saveAndView(project: Project): Promise<ProjectView> {
    const saved = await this.projects.save(project).catch((error: unknown) => {
      // The trial type deleted between the check and this write.
      throw isForeignKeyViolation(error) ? trialTypeNotFound() : error;
    });
    await this.programCache.invalidate(saved.programId);
    return toProjectView(saved, this.box, await this.platform.getSettings());
  }

  /** The trial type (decisions §21) is an enabled card type of this project; another project's is not found. */
  private async assertTrialType(projectId: string, typeId: number): Promise<void> {
    const type = await this.trialTypes.find(projectId, typeId);
    if (!type) throw trialTypeNotFound();
    if (!type.enabled) throw new ServiceError(ErrorCode.CARD_TYPE_DISABLED, undefined, { details: ['trial_card_type_id'] });
  }

  private async assertSelfServiceConnect(): Promise<void> {
    const { connect_opening_mode: mode } = await this.platform.getSettings();
    if (mode !== 'self_service') {
      throw new ServiceError(ErrorCode.CONNECT_NOT_SELF_SERVICE, undefined, { details: { connect_opening_mode: mode } });
    }
  }

  private async ownerFor(actor: AdminPrincipal, requested: string | undefined): Promise<string> {
    if (!isPlatformAdmin(actor)) {
      if (requested !== undefined && requested !== actor.id)
        throw new ServiceError(ErrorCode.FORBIDDEN, 'Authors create projects for themselves only');
      return actor.id;
    }
    if (!requested)
      throw new ServiceError(ErrorCode.BAD_REQUEST, 'owner_id is required when a platform admin creates a project', {
        details: ['owner_id'],
      });
    const owner = await this.users.findOneBy({ id: requested, role: 'author' });
    if (!owner) throw new ServiceError(ErrorCode.BAD_REQUEST, 'owner_id does not name an author', { details: ['owner_id'] });
    return owner.id;
  }
}

function applySettings(project: Project, input: ProjectSettingsDto): void {
  if (input.status !== undefined) project.status = input.status;
  if (input.verification_enabled !== undefined) project.verificationEnabled = input.verification_enabled;
  if (input.device_limit !== undefined) project.deviceLimit = input.device_limit;
  if (input.unbind_enabled !== undefined) project.unbindEnabled = input.unbind_enabled;
  if (input.unbind_deduct_seconds !== undefined) project.unbindDeductSeconds = input.unbind_deduct_seconds;
  if (input.unbind_max !== undefined) project.unbindMax = input.unbind_max;
  if (input.unbind_cooldown_seconds !== undefined) project.unbindCooldownSeconds = input.unbind_cooldown_seconds;
  if (input.unbind_max_per_30_days !== undefined) project.unbindMaxPer30Days = input.unbind_max_per_30_days;
  if (input.device_idle_release_seconds !== undefined) project.deviceIdleReleaseSeconds = input.device_idle_release_seconds;
  if (input.trial_card_type_id !== undefined) project.trialCardTypeId = input.trial_card_type_id;
  if (input.session_ttl_seconds !== undefined) project.sessionTtlSeconds = input.session_ttl_seconds;
  if (input.heartbeat_interval_seconds !== undefined) project.heartbeatIntervalSeconds = input.heartbeat_interval_seconds;
  if (input.user_machine_policy !== undefined) project.userMachinePolicy = input.user_machine_policy;
  if (input.transport_encryption !== undefined) project.transportEncryption = input.transport_encryption;
  if (input.ip_bindings !== undefined) project.ipBindings = [...new Set(input.ip_bindings)];
  if (input.connect_enabled !== undefined) project.connectEnabled = input.connect_enabled;
  if (input.response_signing !== undefined) project.responseSigning = input.response_signing;
  if (input.offline_grace_seconds !== undefined) project.offlineGraceSeconds = input.offline_grace_seconds;
  if (input.concurrent_limit !== undefined) project.concurrentLimit = input.concurrent_limit;
  if (input.seat_policy !== undefined) project.seatPolicy = input.seat_policy;
  if (input.portal_enabled !== undefined) project.portalEnabled = input.portal_enabled;
  if (input.card_guess_limit_per_minute !== undefined) project.cardGuessLimitPerMinute = input.card_guess_limit_per_minute;
}

function applyEntitlements(project: Project, input: Partial<EntitlementsDto>): void {
  if (input.basic_package !== undefined) project.basicPackage = input.basic_package;
  if (input.plan_level !== undefined) project.planLevel = input.plan_level;
  if (input.licence_verify !== undefined) project.licenceVerify = input.licence_verify;
}

function trialTypeNotFound(): ServiceError {
  return new ServiceError(ErrorCode.CARD_TYPE_NOT_FOUND, undefined, { details: ['trial_card_type_id'] });
}
