import { useQueries, useQuery } from '@tanstack/react-query';
import { Space, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../app/use-session';
import { cardTypesQuery } from '../card-types/card-type-queries';
import { projectListQuery } from '../projects/project-queries';
import { meQuery, myCardTypesQuery } from '../agent/me-queries';
import type { Agent } from './agent-queries';
import type { ProjectOption } from './CreateAgentModal';

export function AgentStatusTag({ status }: { status: Agent['status'] }) {
  const { t } = useTranslation();
  return <Tag color={status === 'active' ? 'green' : 'red'}>{t(`agents.statuses.${status}`)}</Tag>;
}

/** What an agent may do beside ordering, as tags; "—" for none. */
export function AgentRights({ agent }: { agent: Agent }) {
  const { t } = useTranslation();
  const rights = (['can_create_sub_agents', 'can_ban', 'can_unbind'] as const).filter((right) => agent[right]);
  if (rights.length === 0) return <>—</>;
  return (
    <Space size={[0, 4]} wrap>
      {rights.map((right) => (
        <Tag key={right}>{t(`agents.rights.${right}`)}</Tag>
      ))}
    </Space>
  );
}

/**
 * The projects the account may give an agent, by name: an author's own projects; an agent's are
 * those it sells for (named by the card types it may sell).
 */
export function useProjectOptions(): { options: ProjectOption[]; nameOf: (id: string) => string } {
  const agent = useSession()?.role === 'agent';
  const projects = useQuery({ ...projectListQuery(1, 100, ''), enabled: !agent });
  const types = useQuery({ ...myCardTypesQuery(), enabled: agent });
  const names = new Map<string, string>(
    agent
      ? (types.data?.items ?? []).map((type) => [type.project_id, type.project_name])
      : (projects.data?.items ?? []).map((project) => [project.id, project.name]),
  );
  return { options: [...names].map(([value, label]) => ({ value, label })), nameOf: (id) => names.get(id) ?? id.slice(0, 8) };
}

/**
 * A card type's name by its id: an author reads the types of the projects given; an agent the
 * types it may sell (a sub-agent sells within them).
 */
export function useTypeNames(projectIds: string[]): (id: number) => string {
  const agent = useSession()?.role === 'agent';
  const perProject = useQueries({ queries: (agent ? [] : projectIds).map((id) => cardTypesQuery(id)) });
  const mine = useQuery({ ...myCardTypesQuery(), enabled: agent });
  const names = new Map<number, string>([
    ...perProject.flatMap((types) => (types.data?.items ?? []).map((type) => [type.id, type.name] as const)),
    ...(mine.data?.items ?? []).map((type) => [type.id, type.name] as const),
  ]);
  return (id) => names.get(id) ?? `#${id}`;
}

/**
 * The projects an API key may be limited to, by name: an author's own; an agent's, every project it
 * sells for (named by its card types where it has any).
 */
export function useKeyProjectOptions(): { options: ProjectOption[]; nameOf: (id: string) => string } {
  const agent = useSession()?.role === 'agent';
  const named = useProjectOptions();
  const me = useQuery({ ...meQuery(), enabled: agent });
  if (!agent) return named;
  return { options: (me.data?.project_ids ?? []).map((id) => ({ value: id, label: named.nameOf(id) })), nameOf: named.nameOf };
}
