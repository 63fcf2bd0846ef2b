import { Global, Injectable, Module } from '@nestjs/common';
import { InjectRepository, TypeOrmModule } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { TrialCardTypes } from '../../projects/trial-card-types';
import { CardType } from './card-type.entity';

@Injectable()
export class TrialCardTypeLookup implements TrialCardTypes {
  constructor(@InjectRepository(CardType) private readonly types: Repository<CardType>) {}

  find(projectId: string, typeId: number): Promise<{ enabled: boolean } | null> {
    return this.types.findOne({ select: { enabled: true }, where: { id: typeId, projectId } });
  }
}

/** Global, as SessionsModule is for CardSessions: ProjectsModule gets TrialCardTypes without importing cards. */
@Global()
@Module({
  imports: [TypeOrmModule.forFeature([CardType])],
  providers: [TrialCardTypeLookup, { provide: TrialCardTypes, useExisting: TrialCardTypeLookup }],
  exports: [TrialCardTypes],
})
export class TrialCardTypesModule {}
