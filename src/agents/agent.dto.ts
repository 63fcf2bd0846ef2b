import { ApiProperty, ApiPropertyOptional, OmitType, PartialType } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayUnique,
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  IsUUID,
  Length,
  Matches,
  Max,
  Min,
  ValidateIf,
} from 'class-validator';
import { USERNAME_RULE } from '../authors/author.dto';
import { Optional } from '../common/optional';
import { PageQuery } from '../common/paging';

/** Largest amount one credit moves: ten million in cents, so no sum of entries leaves a safe integer. */
export const MAX_CREDIT_CENTS = 1_000_000_000;
const MAX_PROJECTS = 100;

export class CreateAgentDto {
  @ApiProperty({ example: 'shop-east' })
  @IsString()
  @Matches(USERNAME_RULE, { message: 'username must be 3-32 of [A-Za-z0-9_.-]' })
  username: string;

  @ApiProperty({ example: 'a-long-password' })
  @IsString()
  @Length(8, 128)
  password: string;

  @ApiPropertyOptional({
    format: 'uuid',
    description:
      "the parent agent (an author's own agent, or the calling agent itself); absent: a first-level agent of the author, or the calling agent's sub-agent",
  })
  @IsOptional()
  @IsUUID()
  parent_agent_id?: string;

  @ApiProperty({
    type: [String],
    format: 'uuid',
    description: "the projects it sells for: the author's own, or within its parent's",
  })
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_PROJECTS)
  @ArrayUnique()
  @IsUUID('all', { each: true })
  project_ids: string[];

  @ApiProperty({
    type: 'integer',
    minimum: 0,
    maximum: 100,
    description: "percent off each card type's price; a sub-agent's at most its parent's",
  })
  @IsInt()
  @Min(0)
  @Max(100)
  discount_percent: number;

  @ApiPropertyOptional({ default: false })
  @IsOptional()
  @IsBoolean()
  can_create_sub_agents?: boolean;

  @ApiPropertyOptional({ default: false, description: 'may ban and unban its own cards' })
  @IsOptional()
  @IsBoolean()
  can_ban?: boolean;

  @ApiPropertyOptional({ default: false, description: "may unbind its own cards' devices" })
  @IsOptional()
  @IsBoolean()
  can_unbind?: boolean;

  @ApiPropertyOptional({
    type: 'integer',
    nullable: true,
    description: 'an order leaving the balance below this tells `agent.balance_low` (null: never)',
  })
  @IsOptional()
  @ValidateIf((_, v) => v !== null)
  @IsInt()
  @Min(0)
  @Max(MAX_CREDIT_CENTS)
  low_balance_cents?: number | null;
}

/** A PATCH: the creation's fields but who it is and under whom, each optional (null refused but for the threshold), and its status. */
export class UpdateAgentDto extends PartialType(OmitType(CreateAgentDto, ['username', 'parent_agent_id'] as const), {
  skipNullProperties: false,
}) {
  @ApiPropertyOptional({ enum: ['active', 'disabled'], description: 'a disabled agent cannot sign in; its tokens end at once' })
  @Optional()
  @IsIn(['active', 'disabled'])
  status?: 'active' | 'disabled';
}

export class ListAgentsQuery extends PageQuery {
  @ApiPropertyOptional({ format: 'uuid', description: 'only the direct sub-agents of this agent' })
  @Optional()
  @IsUUID()
  parent_agent_id?: string;

  @ApiPropertyOptional({ description: 'username contains' })
  @Optional()
  @IsString()
  @Length(1, 32)
  q?: string;
}

export class CreditDto {
  @ApiProperty({
    type: 'integer',
    description:
      "cents to add; negative: a debit (the author only), refused below zero. A parent agent's credit is paid from its own balance",
    example: 10000,
  })
  @IsInt()
  @Min(-MAX_CREDIT_CENTS)
  @Max(MAX_CREDIT_CENTS)
  amount_cents: number;

  @ApiPropertyOptional({ maxLength: 200 })
  @IsOptional()
  @IsString()
  @Length(0, 200)
  note?: string;
}
