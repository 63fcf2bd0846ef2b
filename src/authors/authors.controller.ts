import { Body, Controller, Get, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminPrincipal, CurrentAdmin } from '../admin-kernel/admin-principal';
import { AdminAuth, AdminRoles } from '../admin-kernel/admin-auth.decorator';
import { UuidParamPipe } from '../common/uuid-param.pipe';
import { Envelope } from '../http/envelope/envelope.decorator';
import { ErrorCode } from '../core/errors/error-code';
import { ApiAnswer, ApiFailures, ApiPageAnswer } from '../http/openapi/api-contract';
import { CreateAuthorDto, ListAuthorsQuery, UpdateAuthorDto } from './author.dto';
import { AuthorsService, AuthorView } from './authors.service';

const AUTHOR_ID_PIPE = new UuidParamPipe(ErrorCode.AUTHOR_NOT_FOUND);

@ApiTags('admin: authors')
@Envelope('admin')
@AdminAuth()
@AdminRoles('platform_admin')
@Controller('admin/v1/authors')
export class AuthorsController {
  constructor(private readonly authors: AuthorsService) {}

  @Post()
  @ApiOperation({ summary: 'Create an author account (platform admins)' })
  @ApiAnswer(AuthorView, { status: 201 })
  @ApiFailures(ErrorCode.AUTHOR_USERNAME_TAKEN)
  create(@Body() body: CreateAuthorDto) {
    return this.authors.create(body);
  }

  @Get()
  @ApiOperation({ summary: 'List authors' })
  @ApiPageAnswer(AuthorView)
  list(@Query() query: ListAuthorsQuery) {
    return this.authors.list(query);
  }

  @Get(':id')
  @ApiOperation({ summary: 'Read an author' })
  @ApiAnswer(AuthorView)
  @ApiFailures(ErrorCode.AUTHOR_NOT_FOUND)
  get(@Param('id', AUTHOR_ID_PIPE) id: string) {
    return this.authors.get(id);
  }

  @Patch(':id')
  @ApiOperation({ summary: 'Disable, re-enable, reset the password of or set the daily quotas of an author' })
  @ApiAnswer(AuthorView)
  @ApiFailures(ErrorCode.AUTHOR_NOT_FOUND)
  update(@Param('id', AUTHOR_ID_PIPE) id: string, @Body() body: UpdateAuthorDto, @CurrentAdmin() admin: AdminPrincipal) {
    return this.authors.update(id, body, admin);
  }
}
