import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AdminAuth, AdminRoles } from '../admin-auth/admin-auth.decorator';
import { AdminPrincipal, CurrentAdmin } from '../admin-auth/admin-principal';
import { PROJECT_ID_PIPE } from '../common/uuid-param.pipe';
import { Envelope } from '../core/envelope/envelope.decorator';
import { ConnectSwitchDto, CreateProjectDto, EntitlementsDto, ListProjectsQuery, ProjectInterfaceDto, UpdateProjectDto } from './project.dto';
import { ProjectInterfacesService } from './project-interfaces.service';
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
  create(@CurrentAdmin() actor: AdminPrincipal, @Body() body: CreateProjectDto) {
    return this.projects.create(actor, body);
  }

  @Get()
  list(@CurrentAdmin() actor: AdminPrincipal, @Query() query: ListProjectsQuery) {
    return this.projects.list(actor, query);
  }

  @Get(':id')
  get(@CurrentAdmin() actor: AdminPrincipal, @Param('id', PROJECT_ID_PIPE) id: string) {
    return this.projects.get(actor, id);
  }

  @Patch(':id')
  update(@CurrentAdmin() actor: AdminPrincipal, @Param('id', PROJECT_ID_PIPE) id: string, @Body() body: UpdateProjectDto) {
    return this.projects.update(actor, id, body);
  }

  @Delete(':id')
  @HttpCode(204)
  async remove(@CurrentAdmin() actor: AdminPrincipal, @Param('id', PROJECT_ID_PIPE) id: string): Promise<void> {
    await this.projects.remove(actor, id);
  }

  @Post(':id/secrets/:name/rotate')
  @HttpCode(200)
  rotate(@CurrentAdmin() actor: AdminPrincipal, @Param('id', PROJECT_ID_PIPE) id: string, @Param('name') name: string) {
    return this.projects.rotateSecret(actor, id, name);
  }

  @Put(':id/entitlements')
  @AdminRoles('platform_admin')
  entitlements(@CurrentAdmin() actor: AdminPrincipal, @Param('id', PROJECT_ID_PIPE) id: string, @Body() body: EntitlementsDto) {
    return this.projects.setEntitlements(actor, id, body);
  }

  @Get(':id/interfaces')
  listInterfaces(@CurrentAdmin() actor: AdminPrincipal, @Param('id', PROJECT_ID_PIPE) id: string) {
    return this.interfaces.list(actor, id);
  }

  @Put(':id/interfaces/:name')
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
  @AdminRoles('author')
  setConnect(@CurrentAdmin() actor: AdminPrincipal, @Param('id', PROJECT_ID_PIPE) id: string, @Body() body: ConnectSwitchDto) {
    return this.projects.setConnectEnabled(actor, id, body.enabled);
  }
}
