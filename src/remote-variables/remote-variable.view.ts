import { RemoteVariable } from './remote-variable.entity';

/** The admin API's remote-variable resource. */
export function toRemoteVariableView(v: RemoteVariable) {
  return {
    id: v.id,
    name: v.name,
    value: v.value,
    public: v.public,
    created_at: v.createdAt.toISOString(),
    updated_at: v.updatedAt.toISOString(),
  };
}

export type RemoteVariableView = ReturnType<typeof toRemoteVariableView>;
