import { Client } from '../../sdk/src';
import { AdminClient } from './admin-client';
import { openConnectInEveryMode } from './connect';
import { Relay, startRelay } from './relay';
import { startTestApp, TestApp, unique } from './test-app';

/** The cards a client's live suite uses, one each, named in its environment as CARDKEY_CARD_<ROLE>. */
const ROLES = [
  'SDK',
  'LOOP',
  'RESTORE',
  'V3',
  'CONNECT',
  'LEGACY',
  'PINNED',
  'SELF',
  'TOPUP',
  'TOPUP_KEY',
  'RELAY_GENUINE',
  'RELAY_BOUGHT',
  'QUICKSTART',
];

export interface LiveWorld {
  t: TestApp;
  relay: Relay;
  programId: string;
  /** What the client's live suite reads (CARDKEY_*). */
  env: Record<string, string>;
  /** What the quickstart's first login in this language reads (BASE_URL, PROGRAM_ID, ...). */
  quickstartEnv: Record<string, string>;
  relayTypedKey: string;
  close: () => Promise<void>;
}

/**
 * What an official client's live suite runs against (the C, Go, Java and Python clients share it): a service
 * with a project whose cards, versions, program user, transport-encrypted programs, pinned keys and
 * a relay that swaps the card are named in the suite's environment. `language` names the user, the
 * machines and the made-up key, so two suites never meet.
 */
export async function startLiveWorld(language: string): Promise<LiveWorld> {
  const t = await startTestApp();
  const baseUrl = await t.baseUrl();
  const admin = await AdminClient.asPlatformAdmin(t);
  const author = (await admin.createAuthor()).client;
  const project = await author.createProject({ offline_grace_seconds: 3600, unbind_enabled: true });
  await openConnectInEveryMode(t, project.id);
  // Trials on (decisions §21): each suite's trial test asks for a device's one card.
  const trialType = await author
    .post(`/admin/v1/projects/${project.id}/card-types`, {
      name: 'Trial',
      kind: 'time',
      duration_seconds: 86_400,
      device_limit: 1,
      features: ['trial'],
      price_cents: 0,
    })
    .expect(201);
  await author.patch(`/admin/v1/projects/${project.id}`, { trial_card_type_id: trialType.body.id }).expect(200);

  const batch = await author
    .post(`/admin/v1/projects/${project.id}/cards`, { count: ROLES.length, duration_seconds: 86_400 })
    .expect(201);
  const codes = (batch.body.items as Array<{ code: string }>).map((card) => card.code);
  if (codes.length !== ROLES.length) throw new Error(`live world: ${codes.length} cards made, ${ROLES.length} wanted`);

  await author
    .post(`/admin/v1/projects/${project.id}/versions`, {
      version: '1.0.0',
      changelog: 'first',
      force_update: false,
      enabled: true,
    })
    .expect(201);
  await author
    .post(`/admin/v1/projects/${project.id}/versions`, {
      version: '1.2.0',
      changelog: 'fixes',
      force_update: true,
      enabled: true,
    })
    .expect(201);

  const username = unique(`${language}user`);
  const password = `${language}-pass-word-1`;
  const sdk = new Client({ baseUrl, programId: project.program_id, apiSecret: project.api_secret });
  const registered = await sdk.userRegister({ username, password, machineId: `${language}-user-pc` });
  if (!registered.success) throw new Error(`live world: the program user was refused: ${registered.message}`);

  const sealed = [];
  for (const mode of ['rc4', 'aes', 'aes-gcm']) {
    const target = await author.createProject({ transport_encryption: mode, unbind_enabled: true });
    const card = await author.post(`/admin/v1/projects/${target.id}/cards`, { count: 1, duration_seconds: 86_400 }).expect(201);
    sealed.push({
      mode,
      program_id: target.program_id,
      api_secret: target.api_secret,
      legacy_secret: target.legacy_secret,
      transport_key: target.transport_key,
      card: card.body.items[0].code,
    });
  }

  const keys = (await author.get(`/admin/v1/projects/${project.id}/signing-keys`).expect(200)).body.items as Array<{
    kid: string;
    public_key: string;
  }>;
  const typedKey = `${language.toUpperCase()}-MADE-UP-KEY-01`;
  const relayMachine = `${language}-relay-pc`;
  const bought = codes[ROLES.indexOf('RELAY_BOUGHT')];
  const boughtSession = await sdk.cardLogin({ cardKey: bought, machineId: relayMachine });
  if (!boughtSession.success) throw new Error(`live world: the relay's bought card was refused: ${boughtSession.message}`);
  const relay = await startRelay(baseUrl, project, {
    typedKey,
    validKey: bought,
    validSessionToken: boughtSession.data!.session_token,
  });
  return {
    t,
    relay,
    programId: project.program_id,
    relayTypedKey: typedKey,
    env: {
      CARDKEY_LIVE_URL: baseUrl,
      CARDKEY_PROGRAM_ID: project.program_id,
      CARDKEY_API_SECRET: project.api_secret,
      CARDKEY_LEGACY_SECRET: project.legacy_secret,
      CARDKEY_PROJECT_ID: project.id,
      CARDKEY_ADMIN_TOKEN: author.token,
      CARDKEY_USER_NAME: username,
      CARDKEY_USER_PASSWORD: password,
      CARDKEY_SEALED_PROGRAMS: JSON.stringify(sealed),
      CARDKEY_RESPONSE_KEYS: JSON.stringify(Object.fromEntries(keys.map((k) => [k.kid, k.public_key]))),
      CARDKEY_RELAY_URL: relay.url,
      CARDKEY_RELAY_TYPED_KEY: typedKey,
      CARDKEY_RELAY_MACHINE: relayMachine,
      ...Object.fromEntries(ROLES.map((role, i) => [`CARDKEY_CARD_${role}`, codes[i]])),
    },
    quickstartEnv: {
      BASE_URL: baseUrl,
      PROGRAM_ID: project.program_id,
      API_SECRET: project.api_secret,
      CARD_KEY: codes[ROLES.indexOf('QUICKSTART')],
      MACHINE_ID: `${language}-quickstart-pc`,
    },
    close: async () => {
      await relay.close();
      await t.close();
    },
  };
}

/** The live environment under the names the C and Python suites read: BASE_URL, PROGRAM_ID, CARD_SDK... */
export function unprefixed(env: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).map(([name, value]) => [name === 'CARDKEY_LIVE_URL' ? 'BASE_URL' : name.replace(/^CARDKEY_/, ''), value]),
  );
}
