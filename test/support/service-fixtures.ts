import { INestApplicationContext } from '@nestjs/common';
import { AdminPrincipal } from '../../src/admin-kernel/admin-principal';
import { AgentsService } from '../../src/agents/agents.service';
import { AuthorsService } from '../../src/authors/authors.service';
import { CardTypesService } from '../../src/cards/types/card-types.service';
import { ProjectsService } from '../../src/projects/projects.service';
import { unique } from './test-app';

/**
 * Accounts, projects and card types made through the domain services (no HTTP), for the service
 * tier. A principal is what AdminAuthGuard would have established for the account.
 */
function principal(id: string, username: string, role: AdminPrincipal['role']): AdminPrincipal {
  return { id, username, role, tokenHash: 'service-tier', twoFactorEnabled: false };
}

export async function createAuthor(app: INestApplicationContext): Promise<AdminPrincipal> {
  const made = await app.get(AuthorsService).create({ username: unique('author'), password: 'author-password-1' });
  return principal(made.id, made.username, 'author');
}

export async function createProject(app: INestApplicationContext, owner: AdminPrincipal): Promise<{ id: string }> {
  return app.get(ProjectsService).create(owner, { name: unique('project') });
}

export async function createCardType(
  app: INestApplicationContext,
  owner: AdminPrincipal,
  projectId: string,
  priceCents: number,
): Promise<{ id: number }> {
  return app.get(CardTypesService).create(owner, projectId, {
    name: unique('type'),
    kind: 'time',
    duration_seconds: 86_400,
    device_limit: 1,
    features: [],
    price_cents: priceCents,
    agent_allowed: true,
  });
}

export async function createAgent(
  app: INestApplicationContext,
  creator: AdminPrincipal,
  fields: { project_ids: string[]; discount_percent?: number; parent_agent_id?: string; can_create_sub_agents?: boolean },
): Promise<AdminPrincipal> {
  const made = await app.get(AgentsService).create(creator, {
    username: unique('agent'),
    password: 'agent-password-1',
    discount_percent: 0,
    ...fields,
  });
  return principal(made.id, made.username, 'agent');
}
