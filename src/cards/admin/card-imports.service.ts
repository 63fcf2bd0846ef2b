import { Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import { DataSource } from 'typeorm';
import { AdminPrincipal } from '../../admin-kernel/admin-principal';
import { ErrorCode } from '../../core/errors/error-code';
import { ServiceError } from '../../core/errors/service-error';
import { JsonLogger } from '../../core/logging/json-logger';
import { ProjectAccess } from '../../projects/project-access';
import { CardTypesService } from '../types/card-types.service';
import { IMPORT_STALE_MS } from './card-batches.repository';
import { CardsImporter } from './cards-importer';
import { ImportAnswer } from './import-answers';
import { ImportSlots } from './import-slots';

/** A project's CSV imports (decisions.md "Card imports"): one at a time per account, and the sweep of those a dead process left. */
@Injectable()
export class CardImportsService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly importer: CardsImporter;
  private readonly importSlots = new ImportSlots();
  private sweepTimer?: NodeJS.Timeout;

  constructor(
    dataSource: DataSource,
    private readonly access: ProjectAccess,
    private readonly types: CardTypesService,
    private readonly logger: JsonLogger,
  ) {
    this.importer = new CardsImporter(dataSource, logger);
  }

  /** Imports left by a process that died are cleaned up at start, and then as their heartbeats go stale. */
  async onApplicationBootstrap(): Promise<void> {
    const sweep = () =>
      this.importer
        .sweep()
        .catch((error: unknown) => this.logger.entry('error', 'card import sweep failed', { error: String(error) }));
    await sweep();
    clearInterval(this.sweepTimer);
    this.sweepTimer = setInterval(sweep, IMPORT_STALE_MS / 2).unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.sweepTimer);
  }

  /** The CSV import, or with `dryRun` its report only (cards-importer.ts). */
  async importCsv(
    actor: AdminPrincipal,
    projectId: string,
    request: IncomingMessage,
    dryRun: boolean,
    cardTypeId?: number,
    stock = false,
  ): Promise<ImportAnswer> {
    let release: (() => void) | undefined;
    try {
      if (stock && cardTypeId === undefined) {
        throw new ServiceError(ErrorCode.BAD_REQUEST, undefined, {
          details: ["stock: stock cards are a card type's stock; name the type in card_type_id"],
        });
      }
      const project = await this.access.find(actor, projectId);
      const type = cardTypeId === undefined ? null : await this.types.usable(project.id, cardTypeId);
      release = this.importSlots.take(actor.id);
      const defaults = type
        ? {
            deviceLimit: type.deviceLimit,
            concurrentLimit: type.concurrentLimit,
            type: { id: type.id, kind: type.kind, uses: type.uses, durationSeconds: type.durationSeconds },
            stock,
          }
        : { deviceLimit: project.deviceLimit, concurrentLimit: project.concurrentLimit };
      return await this.importer.run(project.id, request, defaults, dryRun);
    } catch (error) {
      request.resume(); // a refusal before the body was read: it is read past so the answer reaches the client
      throw error;
    } finally {
      release?.();
    }
  }
}
