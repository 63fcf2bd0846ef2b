import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AdminAuth } from '../admin-auth/admin-auth.decorator';
import { AdminPrincipal, CurrentAdmin } from '../admin-auth/admin-principal';
import { IntIdParamPipe } from '../common/int-id-param.pipe';
import { PageQuery } from '../common/paging';
import { PROJECT_ID_PIPE } from '../common/uuid-param.pipe';
import { Envelope } from '../core/envelope/envelope.decorator';
import { ErrorCode } from '../core/errors/error-code';
import { CreateRemoteVariableDto, UpdateRemoteVariableDto } from './remote-variable.dto';
import { RemoteVariablesService } from './remote-variables.service';

const VARIABLE_ID_PIPE = new IntIdParamPipe(ErrorCode.VARIABLE_NOT_FOUND);

@ApiTags('admin: remote variables')
@Envelope('admin')
@AdminAuth()
@Controller('admin/v1/projects/:id/variables')
export class RemoteVariablesController {
  constructor(private readonly variables: RemoteVariablesService) {}

  @Post()
  create(@CurrentAdmin() actor: AdminPrincipal, @Param('id', PROJECT_ID_PIPE) id: string, @Body() body: CreateRemoteVariableDto) {
    return this.variables.create(actor, id, body);
  }

  @Get()
  list(@CurrentAdmin() actor: AdminPrincipal, @Param('id', PROJECT_ID_PIPE) id: string, @Query() query: PageQuery) {
    return this.variables.list(actor, id, query);
  }

  @Get(':variableId')
  get(
    @CurrentAdmin() actor: AdminPrincipal,
    @Param('id', PROJECT_ID_PIPE) id: string,
    @Param('variableId', VARIABLE_ID_PIPE) variableId: number,
  ) {
    return this.variables.get(actor, id, variableId);
  }

  @Patch(':variableId')
  update(
    @CurrentAdmin() actor: AdminPrincipal,
    @Param('id', PROJECT_ID_PIPE) id: string,
    @Param('variableId', VARIABLE_ID_PIPE) variableId: number,
    @Body() body: UpdateRemoteVariableDto,
  ) {
    return this.variables.update(actor, id, variableId, body);
  }

  @Delete(':variableId')
  @HttpCode(204)
  async remove(
    @CurrentAdmin() actor: AdminPrincipal,
    @Param('id', PROJECT_ID_PIPE) id: string,
    @Param('variableId', VARIABLE_ID_PIPE) variableId: number,
  ): Promise<void> {
    await this.variables.remove(actor, id, variableId);
  }
}
