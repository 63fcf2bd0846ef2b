import { Injectable } from '@nestjs/common';
import { ClientProgram, ClientProgramDirectory } from '../../access/client-program';

/** The program of an unsigned legacy route, by the one `app` rule (ClientProgramDirectory.byAppField). */
@Injectable()
export class LegacyProgramResolver {
  constructor(private readonly directory: ClientProgramDirectory) {}

  resolve(fields: Record<string, unknown> | undefined): Promise<ClientProgram> {
    return this.directory.byAppField(fields?.app);
  }
}
