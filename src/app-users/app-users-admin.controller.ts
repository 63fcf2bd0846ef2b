import { Body, Controller, Get, Param, Patch, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminAuth } from '../admin-kernel/admin-auth.decorator';
import { AdminPrincipal, CurrentAdmin } from '../admin-kernel/admin-principal';
import { IntIdParamPipe } from '../common/int-id-param.pipe';
import { PROJECT_ID_PIPE } from '../common/uuid-param.pipe';
import { Envelope } from '../http/envelope/envelope.decorator';
import { ErrorCode } from '../core/errors/error-code';
import { ApiAnswer, ApiFailures, ApiPageAnswer } from '../http/openapi/api-contract';
import { AppUserView } from './app-user.view';
import { ListAppUsersQuery, UpdateAppUserDto } from './app-users.dto';
import { AppUsersAdminService } from './app-users-admin.service';

const USER_ID_PIPE = new IntIdParamPipe(ErrorCode.APP_USER_NOT_FOUND);

@ApiTags('admin: program users')
@Envelope('admin')
@AdminAuth()
@Controller('admin/v1/projects/:id/app-users')
export class AppUsersAdminController {
  constructor(private readonly users: AppUsersAdminService) {}

  @Get()
  @ApiOperation({ summary: 'List the program users of a project' })
  @ApiPageAnswer(AppUserView)
  @ApiFailures(ErrorCode.PROJECT_NOT_FOUND)
  list(@CurrentAdmin() actor: AdminPrincipal, @Param('id', PROJECT_ID_PIPE) id: string, @Query() query: ListAppUsersQuery) {
    return this.users.list(actor, id, query);
  }

  @Get(':userId')
  @ApiOperation({ summary: 'Read a program user' })
  @ApiAnswer(AppUserView)
  @ApiFailures(ErrorCode.PROJECT_NOT_FOUND, ErrorCode.APP_USER_NOT_FOUND)
  get(
    @CurrentAdmin() actor: AdminPrincipal,
    @Param('id', PROJECT_ID_PIPE) id: string,
    @Param('userId', USER_ID_PIPE) userId: number,
  ) {
    return this.users.get(actor, id, userId);
  }

  /** Ban or unban (`status`), reset the password (`password`), unbind the machine (`machine_id: null`). */
  @Patch(':userId')
  @ApiOperation({ summary: 'Ban or unban a program user, reset the password, unbind the machine' })
  @ApiAnswer(AppUserView)
  @ApiFailures(ErrorCode.PROJECT_NOT_FOUND, ErrorCode.APP_USER_NOT_FOUND)
  update(
    @CurrentAdmin() actor: AdminPrincipal,
    @Param('id', PROJECT_ID_PIPE) id: string,
    @Param('userId', USER_ID_PIPE) userId: number,
    @Body() body: UpdateAppUserDto,
  ) {
    return this.users.update(actor, id, userId, body);
  }
}
