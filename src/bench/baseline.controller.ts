import { Controller, HttpCode, Post } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { DeclareAuthScheme } from '../core/http/auth-scheme';
import { AcceptsBody } from '../core/http/content-type';

/**
 * The benchmark's yardstick (`npm run bench`): a bare route on the same adapter and global
 * middleware as the real ones, answering a constant. Registered only when BENCH_BASELINE=1.
 */
@ApiExcludeController()
@DeclareAuthScheme('none')
@Controller('bench')
export class BaselineController {
  @Post('baseline')
  @AcceptsBody('form')
  @HttpCode(200)
  baseline(): { status: true } {
    return { status: true };
  }
}
