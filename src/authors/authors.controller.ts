import { Body, Controller, Get, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AdminAuth, AdminRoles } from '../admin-auth/admin-auth.decorator';
import { UuidParamPipe } from '../common/uuid-param.pipe';
import { Envelope } from '../core/envelope/envelope.decorator';
import { ErrorCode } from '../core/errors/error-code';
import { CreateAuthorDto, ListAuthorsQuery, UpdateAuthorDto } from './author.dto';
import { AuthorsService } from './authors.service';

const AUTHOR_ID_PIPE = new UuidParamPipe(ErrorCode.AUTHOR_NOT_FOUND);

@ApiTags('admin: authors')
@Envelope('admin')
@AdminAuth()
@AdminRoles('platform_admin')
@Controller('admin/v1/authors')
export class AuthorsController {
  constructor(private readonly authors: AuthorsService) {}

  @Post()
  create(@Body() body: CreateAuthorDto) {
    return this.authors.create(body);
  }

  @Get()
  list(@Query() query: ListAuthorsQuery) {
    return this.authors.list(query);
  }

  @Get(':id')
  get(@Param('id', AUTHOR_ID_PIPE) id: string) {
    return this.authors.get(id);
  }

  @Patch(':id')
  update(@Param('id', AUTHOR_ID_PIPE) id: string, @Body() body: UpdateAuthorDto) {
    return this.authors.update(id, body);
  }
}
