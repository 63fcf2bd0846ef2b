import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ProjectsModule } from '../projects/projects.module';
import { CardBatch } from './card-batch.entity';
import { CardDevice } from './card-device.entity';
import { Card } from './card.entity';

@Module({
  imports: [TypeOrmModule.forFeature([Card, CardDevice, CardBatch]), ProjectsModule],
  controllers: [],
  providers: [],
  exports: [TypeOrmModule],
})
export class CardsModule {}
