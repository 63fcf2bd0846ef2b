import { Module } from '@nestjs/common';
import { CardsModule } from '../cards/cards.module';
import { StandardModule } from '../standard/standard.module';
import { V3Controller } from './v3.controller';

/** The HTTP V3 family: card login with a compatible token (the standard envelope). */
@Module({
  imports: [CardsModule, StandardModule],
  controllers: [V3Controller],
})
export class V3Module {}
