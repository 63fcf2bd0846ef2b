import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminAuth } from '../admin-kernel/admin-auth.decorator';
import { AdminPrincipal, CurrentAdmin } from '../admin-kernel/admin-principal';
import { IntIdParamPipe } from '../common/int-id-param.pipe';
import { PageQuery } from '../common/paging';
import { PROJECT_ID_PIPE } from '../common/uuid-param.pipe';
import { Envelope } from '../http/envelope/envelope.decorator';
import { ErrorCode } from '../core/errors/error-code';
import { ApiAnswer, ApiFailures, ApiNoContent, ApiPageAnswer } from '../http/openapi/api-contract';
import { RemoteVariableView } from './remote-variable.view';
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
  @ApiOperation({ summary: 'Create a remote variable' })
  @ApiAnswer(RemoteVariableView, { status: 201 })
  @ApiFailures(ErrorCode.PROJECT_NOT_FOUND, ErrorCode.VARIABLE_NAME_TAKEN)
  create(@CurrentAdmin() actor: AdminPrincipal, @Param('id', PROJECT_ID_PIPE) id: string, @Body() body: CreateRemoteVariableDto) {
    return this.variables.create(actor, id, body);
  }

  @Get()
  @ApiOperation({ summary: 'List the remote variables of a project' })
  @ApiPageAnswer(RemoteVariableView)
  @ApiFailures(ErrorCode.PROJECT_NOT_FOUND)
  list(@CurrentAdmin() actor: AdminPrincipal, @Param('id', PROJECT_ID_PIPE) id: string, @Query() query: PageQuery) {
    return this.variables.list(actor, id, query);
  }

  @Get(':variableId')
  @ApiOperation({ summary: 'Read a remote variable' })
  @ApiAnswer(RemoteVariableView)
  @ApiFailures(ErrorCode.PROJECT_NOT_FOUND, ErrorCode.VARIABLE_NOT_FOUND)
  get(
    @CurrentAdmin() actor: AdminPrincipal,
    @Param('id', PROJECT_ID_PIPE) id: string,
    @Param('variableId', VARIABLE_ID_PIPE) variableId: number,
  ) {
    return this.variables.get(actor, id, variableId);
  }

  @Patch(':variableId')
  @ApiOperation({ summary: 'Change a remote variable' })
  @ApiAnswer(RemoteVariableView)
  @ApiFailures(ErrorCode.PROJECT_NOT_FOUND, ErrorCode.VARIABLE_NOT_FOUND, ErrorCode.VARIABLE_NAME_TAKEN)
  update(
    @CurrentAdmin() actor: AdminPrincipal,
    @Param('id', PROJECT_ID_PIPE) id: string,
    @Param('variableId', VARIABLE_ID_PIPE) variableId: number,
    @Body() body: UpdateRemoteVariableDto,
  ) {
    return this.variables.update(actor, id, variableId, body);
  }

  @Delete(':variableId')
  @ApiOperation({ summary: 'Delete a remote variable' })
  @ApiNoContent()
  @ApiFailures(ErrorCode.PROJECT_NOT_FOUND, ErrorCode.VARIABLE_NOT_FOUND)
  @HttpCode(204)
  async remove(
    @CurrentAdmin() actor: AdminPrincipal,
    @Param('id', PROJECT_ID_PIPE) id: string,
    @Param('variableId', VARIABLE_ID_PIPE) variableId: number,
  ): Promise<void> {
    await this.variables.remove(actor, id, variableId);
  }
}
