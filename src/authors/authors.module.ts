import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Project } from '../projects/project.entity';
import { AuthorsController } from './authors.controller';
import { AuthorsService } from './authors.service';

@Module({ imports: [TypeOrmModule.forFeature([Project])], controllers: [AuthorsController], providers: [AuthorsService] })
export class AuthorsModule {}
