import { ApiProperty } from '@nestjs/swagger';
import { RemoteVariable } from './remote-variable.entity';

/** The admin API's remote-variable resource. */
export class RemoteVariableView {
  @ApiProperty({ type: 'integer' }) id!: number;
  @ApiProperty() name!: string;
  @ApiProperty() value!: string;
  @ApiProperty({ description: 'false: only clients with a valid login token read it' }) public!: boolean;
  @ApiProperty({ type: String, format: 'date-time' }) created_at!: string;
  @ApiProperty({ type: String, format: 'date-time' }) updated_at!: string;
}

export function toRemoteVariableView(v: RemoteVariable): RemoteVariableView {
  return {
    id: v.id,
    name: v.name,
    value: v.value,
    public: v.public,
    created_at: v.createdAt.toISOString(),
    updated_at: v.updatedAt.toISOString(),
  };
}
