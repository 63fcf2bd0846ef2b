import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean } from 'class-validator';
import { Optional } from '../common/optional';

export class MakeBackupDto {
  @ApiPropertyOptional({ description: 'leave the request and login logs out (their tables are restored empty)' })
  @Optional()
  @IsBoolean()
  without_logs?: boolean;
}
