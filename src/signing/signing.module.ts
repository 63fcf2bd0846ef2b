import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ProjectsModule } from '../projects/projects.module';
import { ResponseSigner } from './response-signer';
import { SigningKey } from './signing-key.entity';
import { SigningKeysController } from './signing-keys.controller';
import { SigningKeysService } from './signing-keys.service';

/** Signed answers and offline licences (decisions §15): project keys, rotation, the answer signer. */
@Module({
  imports: [TypeOrmModule.forFeature([SigningKey]), ProjectsModule],
  controllers: [SigningKeysController],
  providers: [SigningKeysService, ResponseSigner],
  exports: [SigningKeysService, ResponseSigner],
})
export class SigningModule {}
