import { Entity, PrimaryColumn } from 'typeorm';

/** A project an agent sells cards of. See migration 1766410000000. */
@Entity('agent_projects')
export class AgentProject {
  @PrimaryColumn({ name: 'agent_id', type: 'uuid' })
  agentId: string;

  @PrimaryColumn({ name: 'project_id', type: 'uuid' })
  projectId: string;
}
