import { Controller, HttpCode, Post, UseInterceptors } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { ConnectEnvelopeInterceptor } from '../http/envelope/envelope.interceptors';
import { ClientReply } from '../http/envelope/render';
import { DeclareAuthScheme } from '../http/auth-scheme';
import { AcceptsBody } from '../http/content-type';

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

  /**
   * The same route answered through a client family's envelope interceptor: the bench measures the
   * two A-B-B-A, and states the difference as the interceptor's cost (bench/report.ts).
   */
  @Post('baseline-envelope')
  @AcceptsBody('form')
  @HttpCode(200)
  @UseInterceptors(ConnectEnvelopeInterceptor)
  baselineEnvelope(): ClientReply {
    return {};
  }
}
