import { Module } from '@nestjs/common';
import { AccessModule } from '../access/access.module';
import { SessionBearerGuard } from '../sessions/session-bearer';
import { SessionsModule } from '../sessions/sessions.module';
import { HmacGuard } from './hmac.guard';

/** What the standard family's two protocols share (V3 and SDK): HMAC request signing, session Bearer. */
@Module({
  imports: [AccessModule, SessionsModule],
  providers: [HmacGuard, SessionBearerGuard],
  // Re-exported: a guard named in UseGuards is built in the module of the route that uses it.
  exports: [HmacGuard, SessionBearerGuard, AccessModule, SessionsModule],
})
export class StandardModule {}
