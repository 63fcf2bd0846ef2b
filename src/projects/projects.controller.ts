import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { StepUp } from '../admin-kernel/step-up';
import { AdminAuth, AdminRoles } from '../admin-kernel/admin-auth.decorator';
import { AdminPrincipal, CurrentAdmin } from '../admin-kernel/admin-principal';
import { PROJECT_ID_PIPE } from '../common/uuid-param.pipe';
import { Envelope } from '../http/envelope/envelope.decorator';
import { ErrorCode } from '../core/errors/error-code';
import { ApiAnswer, ApiFailures, ApiListAnswer, ApiNoContent, ApiPageAnswer } from '../http/openapi/api-contract';
import { ProjectView, RotatedSecret } from './project.view';
import {
  ConnectSwitchDto,
  CreateProjectDto,
  EntitlementsDto,
  ListProjectsQuery,
  ProjectInterfaceDto,
  UpdateProjectDto,
} from './project.dto';
import { ProjectInterfacesService, ProjectInterfaceView } from './project-interfaces.service';
import { ProjectsService } from './projects.service';

@ApiTags('admin: projects')
@Envelope('admin')
@AdminAuth()
@Controller('admin/v1/projects')
export class ProjectsController {
  constructor(
    private readonly projects: ProjectsService,
    private readonly interfaces: ProjectInterfacesService,
  ) {}

  @Post()
  @ApiOperation({ summary: 'Create a project (its secrets are shown once, in this answer)' })
  @ApiAnswer(ProjectView, { status: 201 })
  @ApiFailures(ErrorCode.AUTHOR_NOT_FOUND)
  create(@CurrentAdmin() actor: AdminPrincipal, @Body() body: CreateProjectDto) {
    return this.projects.create(actor, body);
  }

  @Get()
  @ApiOperation({ summary: 'List the projects you may manage' })
  @ApiPageAnswer(ProjectView)
  list(@CurrentAdmin() actor: AdminPrincipal, @Query() query: ListProjectsQuery) {
    return this.projects.list(actor, query);
  }

  @Get(':id')
  @ApiOperation({ summary: 'Read a project' })
  @ApiAnswer(ProjectView)
  @ApiFailures(ErrorCode.PROJECT_NOT_FOUND)
  get(@CurrentAdmin() actor: AdminPrincipal, @Param('id', PROJECT_ID_PIPE) id: string) {
    return this.projects.get(actor, id);
  }

  @Patch(':id')
  @ApiOperation({ summary: "Change a project's settings" })
  @ApiAnswer(ProjectView)
  @ApiFailures(ErrorCode.PROJECT_NOT_FOUND)
  update(@CurrentAdmin() actor: AdminPrincipal, @Param('id', PROJECT_ID_PIPE) id: string, @Body() body: UpdateProjectDto) {
    return this.projects.update(actor, id, body);
  }

  @Delete(':id')
  @ApiOperation({ summary: 'Delete a project with its cards, users and logs' })
  @ApiNoContent()
  @ApiFailures(ErrorCode.PROJECT_NOT_FOUND)
  @HttpCode(204)
  @StepUp()
  async remove(@CurrentAdmin() actor: AdminPrincipal, @Param('id', PROJECT_ID_PIPE) id: string): Promise<void> {
    await this.projects.remove(actor, id);
  }

  @Post(':id/secrets/:name/rotate')
  @ApiOperation({ summary: 'Rotate a secret (api_secret, legacy_secret, transport_key); the new one is shown once' })
  @ApiAnswer(RotatedSecret)
  @ApiFailures(ErrorCode.PROJECT_NOT_FOUND, ErrorCode.SECRET_NOT_FOUND)
  @HttpCode(200)
  @StepUp()
  rotate(@CurrentAdmin() actor: AdminPrincipal, @Param('id', PROJECT_ID_PIPE) id: string, @Param('name') name: string) {
    return this.projects.rotateSecret(actor, id, name);
  }

  @Put(':id/entitlements')
  @ApiOperation({ summary: "Set a project's entitlements (platform admins)" })
  @ApiAnswer(ProjectView)
  @ApiFailures(ErrorCode.PROJECT_NOT_FOUND)
  @AdminRoles('platform_admin')
  entitlements(@CurrentAdmin() actor: AdminPrincipal, @Param('id', PROJECT_ID_PIPE) id: string, @Body() body: EntitlementsDto) {
    return this.projects.setEntitlements(actor, id, body);
  }

  @Get(':id/interfaces')
  @ApiOperation({ summary: "List a project's interface authorizations and daily quotas" })
  @ApiListAnswer(ProjectInterfaceView)
  @ApiFailures(ErrorCode.PROJECT_NOT_FOUND)
  listInterfaces(@CurrentAdmin() actor: AdminPrincipal, @Param('id', PROJECT_ID_PIPE) id: string) {
    return this.interfaces.list(actor, id);
  }

  @Put(':id/interfaces/:name')
  @ApiOperation({ summary: 'Authorize or refuse an interface for a project, with its daily quota (platform admins)' })
  @ApiAnswer(ProjectInterfaceView)
  @ApiFailures(ErrorCode.PROJECT_NOT_FOUND, ErrorCode.INTERFACE_NOT_FOUND)
  @AdminRoles('platform_admin')
  setInterface(
    @CurrentAdmin() actor: AdminPrincipal,
    @Param('id', PROJECT_ID_PIPE) id: string,
    @Param('name') name: string,
    @Body() body: ProjectInterfaceDto,
  ) {
    return this.interfaces.set(actor, id, name, body);
  }

  @Put(':id/connect')
  @ApiOperation({ summary: 'Switch Connect on or off (authors, in the self_service opening mode)' })
  @ApiAnswer(ProjectView)
  @ApiFailures(ErrorCode.PROJECT_NOT_FOUND, ErrorCode.CONNECT_NOT_SELF_SERVICE)
  @AdminRoles('author')
  setConnect(@CurrentAdmin() actor: AdminPrincipal, @Param('id', PROJECT_ID_PIPE) id: string, @Body() body: ConnectSwitchDto) {
    return this.projects.setConnectEnabled(actor, id, body.enabled);
  }
}
