import { Module } from '@nestjs/common';
import { ProjectsModule } from '../../projects/projects.module';
import { ApiKeysController } from './api-keys.controller';
import { ApiKeysService } from './api-keys.service';

/** The API key routes; the keys' repository, hasher and authenticator come from the global AdminAuthModule. */
@Module({
  imports: [ProjectsModule],
  controllers: [ApiKeysController],
  providers: [ApiKeysService],
})
export class ApiKeysModule {}
