import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, MoreThan, Repository } from 'typeorm';
import { CardType } from '../cards/types/card-type.entity';
import { AppConfig } from '../config/app-config';
import { CheckoutsService } from './checkouts.service';
import { PaymentProviders } from './payment-providers';
import { PaymentProvidersRepository } from './payment-providers.repository';
import { StorefrontCatalogView } from './storefront-catalog.view';
import { StockCardsRepository } from './stock-cards.repository';

/**
 * What a program's storefront page offers (docs/decisions.md, "Storefront page"): its name, its types
 * for sale with their prices, and the providers a checkout may name. Public, so it says nothing else:
 * no author, no stock count (only whether a stock type is sold out), no provider setting.
 */
@Injectable()
export class StorefrontCatalogService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly config: AppConfig,
    private readonly checkouts: CheckoutsService,
    private readonly providers: PaymentProviders,
    private readonly providerRows: PaymentProvidersRepository,
    private readonly stock: StockCardsRepository,
    @InjectRepository(CardType) private readonly types: Repository<CardType>,
  ) {}

  /** Refused as a checkout would be: an unknown program, or a disabled program or author. */
  async catalog(programId: string): Promise<StorefrontCatalogView> {
    const project = await this.checkouts.sellingProject(programId);
    const types = await this.types.find({
      where: { projectId: project.id, forSale: true, enabled: true, priceCents: MoreThan(0) },
      order: { priceCents: 'ASC', id: 'ASC' },
    });
    const soldOut = await this.stock.soldOut(
      project.id,
      types.filter((type) => type.stockMode === 'stock').map((type) => type.id),
      this.dataSource.manager,
    );
    const providers = (await this.providerRows.listOfProject(project.id))
      .filter((row) => row.enabled)
      .map((row) => this.providers.find(row.provider))
      .filter((provider) => provider?.currencies.includes(this.config.CURRENCY))
      .map((provider) => provider!.name);
    return {
      program_id: project.programId,
      name: project.name,
      currency: this.config.CURRENCY,
      card_types: types.map((type) => ({
        id: type.id,
        name: type.name,
        kind: type.kind,
        duration_seconds: type.durationSeconds,
        uses: type.uses,
        device_limit: type.deviceLimit,
        price_cents: type.priceCents,
        stock_mode: type.stockMode,
        in_stock: !soldOut.has(type.id),
      })),
      providers,
    };
  }
}
