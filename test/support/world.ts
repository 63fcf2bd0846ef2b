import { Card } from '../../src/cards/card.entity';
import { AdminClient } from './admin-client';
import { insertCard } from './cards';
import { openConnectInEveryMode } from './connect';
import { sdkLogin } from './standard';
import { StartOptions, startTestApp, TestApp } from './test-app';

export type Project = Awaited<ReturnType<AdminClient['createProject']>>;
export type AuthorAccount = Awaited<ReturnType<AdminClient['createAuthor']>>;

export interface WorldOptions {
  /** Build on this running app instead of starting one (its owner closes it). */
  t?: TestApp;
  /** Environment and options of the app started for the world. */
  env?: Record<string, string>;
  app?: StartOptions;
  /** Fields of the author (`createAuthor`). */
  author?: Record<string, unknown>;
  /** Fields of the author's project (`createProject`). */
  project?: object;
  /** Makes the project pass the Connect opening check in every opening mode (openConnectInEveryMode). */
  connect?: boolean;
  /** Cards inserted in the project: a count, or the fields of each. */
  cards?: number | Array<Partial<Card>>;
  /** Logs the first card in over the SDK (a card session); implies one card. */
  sdkSession?: boolean | { machine: string };
}

export interface World {
  t: TestApp;
  /** The bootstrap platform admin, logged in. */
  admin: AdminClient;
  /** The author, logged in. */
  author: AdminClient;
  authorAccount: AuthorAccount;
  /** A project of the author, with its secrets (api_secret, legacy_secret, transport_key). */
  project: Project;
  cards: Card[];
  /** The SDK card session of `cards[0]`, when asked for. */
  session?: { card: Card; machine: string; token: string };
  /** Closes the app when the world started it. */
  close: () => Promise<void>;
}

/**
 * What most e2e files set up first, in one call: a running app (or the given one), the platform
 * admin logged in, an author logged in with a project, and optionally cards and an SDK session.
 */
export async function buildWorld(options: WorldOptions = {}): Promise<World> {
  const t = options.t ?? (await startTestApp(options.env, options.app));
  try {
    const admin = await AdminClient.asPlatformAdmin(t);
    const authorAccount = await admin.createAuthor(options.author);
    const project = await authorAccount.client.createProject(options.project);
    if (options.connect) await openConnectInEveryMode(t, project.id);
    const wanted = typeof options.cards === 'number' ? Array.from({ length: options.cards }, () => ({})) : (options.cards ?? []);
    if (options.sdkSession && wanted.length === 0) wanted.push({});
    const cards: Card[] = [];
    for (const fields of wanted) cards.push(await insertCard(t, project.id, fields));
    let session: World['session'];
    if (options.sdkSession) {
      const machine = typeof options.sdkSession === 'object' ? options.sdkSession.machine : 'world-machine';
      const res = await sdkLogin(t, project.api_secret, {
        app: project.program_id,
        card_key: cards[0].code,
        machine_id: machine,
      }).expect(200);
      if (res.body.code !== 0) throw new Error(`world: the SDK login was refused: ${JSON.stringify(res.body)}`);
      session = { card: cards[0], machine, token: res.body.data.session_token };
    }
    return {
      t,
      admin,
      author: authorAccount.client,
      authorAccount,
      project,
      cards,
      session,
      close: () => (options.t ? Promise.resolve() : t.close()),
    };
  } catch (error) {
    if (!options.t) await t.close().catch(() => undefined);
    throw error;
  }
}
