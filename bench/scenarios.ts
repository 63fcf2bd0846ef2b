// The scenario table and the requests each scenario sends. V3 and SDK requests are signed with
// the official client's signing functions (sdk/src/signing.ts, package @cardkey/client).
import { signatureHeaders } from '../sdk/src/signing';
import { prop } from './http';
import { fail, FORM, JSON_TYPE, type Adapter, type ScenarioName } from './settings';
import type { Fixture, Session } from './types';

/** A scenario's target (the performance issue), by adapter: a share of that adapter's baseline. */
export interface Target {
  /** Minimum req/s as a share of the adapter's baseline, per adapter (none: no target there). */
  ratio: Partial<Record<Adapter, number>>;
  /** Maximum p99 as a multiple of the same run's p50. */
  p99OverP50?: number;
}

export interface ScenarioInfo {
  title: string;
  short: string;
  target?: Target;
}

export const SCENARIOS: Record<ScenarioName, ScenarioInfo> = {
  baseline: { title: 'baseline: bare route, constant answer', short: 'baseline' },
  // The same route through a client family's envelope interceptor: what the interceptor path costs a request.
  'baseline-envelope': { title: 'baseline through ConnectEnvelopeInterceptor', short: 'baseline + envelope interceptor' },
  bound: {
    title: 'Connect login, bound device',
    short: 'bound-device login',
    target: { ratio: { fastify: 0.35, express: 0.5 }, p99OverP50: 4 },
  },
  // The same requests with the project's response_signing off: what Ed25519-signed answers cost (decisions §15).
  'bound-unsigned': { title: 'Connect login, bound device, answers unsigned', short: 'bound-device login, unsigned' },
  // The bound-device login of a count card: each login also takes a use (issue: at most 10 % dearer than `bound`).
  count: { title: 'Connect login, bound device, count card', short: 'count-card login' },
  'new-device': { title: 'Connect login, new device each time', short: 'new-device login', target: { ratio: { fastify: 0.15 } } },
  nonce: { title: 'Connect login, bound device + unique nonce', short: 'login with nonce' },
  v3: { title: 'V3 login (HMAC-signed form), bound device', short: 'V3 login', target: { ratio: { fastify: 0.3 } } },
  'v3-unsigned': { title: 'V3 login, bound device, answers unsigned', short: 'V3 login, unsigned' },
  'card-heartbeat': {
    title: 'SDK card heartbeat (Bearer session)',
    short: 'card heartbeat',
    target: { ratio: { fastify: 0.5, express: 0.7 } },
  },
  'user-login': { title: 'SDK program-user login (argon2 verify)', short: 'user login' },
  'user-heartbeat': {
    title: 'SDK user heartbeat (Bearer session)',
    short: 'user heartbeat',
    target: { ratio: { fastify: 0.5, express: 0.7 } },
  },
};

/** Scenarios on the standard routes (JSON answers with code 0 and success true). */
export const STANDARD: ReadonlySet<ScenarioName> = new Set<ScenarioName>([
  'v3',
  'v3-unsigned',
  'card-heartbeat',
  'user-login',
  'user-heartbeat',
]);
/**
 * Scenarios run with the project's response_signing switched off, by their signed twin: when both
 * are selected they run as a pair (measure.ts, runSigningPair).
 */
export const UNSIGNED_TWIN: Partial<Record<ScenarioName, ScenarioName>> = { bound: 'bound-unsigned', v3: 'v3-unsigned' };
/**
 * Scenarios measured A-B-B-A against a reference of the same run (measure.ts, runPair), their
 * cost stated as a ratio to it: a count-card login may cost at most 10 % more than a time card's; the
 * envelope interceptor's cost is the enveloped baseline's CPU per request over the bare one's (report.ts).
 */
export const COMPARED_WITH: Partial<Record<ScenarioName, ScenarioName>> = { 'baseline-envelope': 'baseline', count: 'bound' };
export const SIGNED_TWIN: Partial<Record<ScenarioName, ScenarioName>> = { 'bound-unsigned': 'bound', 'v3-unsigned': 'v3' };

export const PATHS = {
  v3: '/api/legacy/v3/cards/login',
  'v3-unsigned': '/api/legacy/v3/cards/login',
  sdkCardLogin: '/api/v1/cards/login',
  'card-heartbeat': '/api/v1/cards/heartbeat',
  userRegister: '/api/v1/users/register',
  'user-login': '/api/v1/users/login',
  'user-heartbeat': '/api/v1/users/heartbeat',
} as const;
const SCENARIO_PATHS: Partial<Record<ScenarioName, string>> = PATHS;

/** The target of a scenario on one adapter, or undefined when it has none there. */
export function targetOn(t: Target | undefined, adapter: Adapter): { ratio: number; p99OverP50?: number } | undefined {
  const ratio = t?.ratio[adapter];
  return ratio === undefined ? undefined : { ratio, p99OverP50: t?.p99OverP50 };
}

export const targetText = (t: { ratio: number; p99OverP50?: number }): string =>
  `≥ ${Math.round(t.ratio * 100)} %${t.p99OverP50 ? `, p99 ≤ ${t.p99OverP50} × p50` : ''}`;

export const boundSerial = (i: number): string => `bound-device-${i}`;
export const countSerial = (i: number): string => `count-device-${i}`;

export const routeOf = (name: ScenarioName, fixture: Fixture): string =>
  SCENARIO_PATHS[name] ??
  (name === 'baseline' || name === 'baseline-envelope' ? `/bench/${name}` : `/connect/${fixture.programId}`);

/** Signature headers of a V3 / SDK request (decisions §3), with its content type: the official client's signatureHeaders. */
export function signedHeaders(
  secret: string,
  route: string,
  body: string,
  nonce: string,
  contentType: string,
): Record<string, string> {
  return { 'content-type': contentType, ...signatureHeaders(secret, { method: 'POST', path: route, body, nonce }) };
}

/** One request of a scenario (always POST to the scenario's route). */
export interface BenchRequest {
  headers: Record<string, string>;
  body: string;
}

type ConnectScenario = 'baseline' | 'baseline-envelope' | 'bound' | 'bound-unsigned' | 'count' | 'new-device' | 'nonce';

/** The form body of the next request of a scenario; every call differs where the scenario needs it. */
function bodies(name: ConnectScenario, fixture: Fixture, runTag: string): () => string {
  let n = 0;
  const { bound, count, newDevice } = fixture;
  switch (name) {
    case 'baseline':
    case 'baseline-envelope':
      return () => `user_key=${bound[n++ % bound.length]}&serial=${boundSerial(0)}`;
    case 'bound':
    case 'bound-unsigned':
      return () => {
        const i = n++ % bound.length;
        return `user_key=${bound[i]}&serial=${boundSerial(i)}`;
      };
    case 'count':
      return () => {
        const i = n++ % count.length;
        return `user_key=${count[i]}&serial=${countSerial(i)}`;
      };
    case 'new-device':
      return () => `user_key=${newDevice[n % newDevice.length]}&serial=new-${runTag}-${n++}`;
    case 'nonce':
      return () => {
        const i = n % bound.length;
        return `user_key=${bound[i]}&serial=${boundSerial(i)}&nonce=${runTag}-${n++}`;
      };
  }
}

/**
 * The next request of a scenario as { headers, body }: Connect and the baseline post a form; the
 * signed routes sign every request (its own timestamp and a unique nonce); heartbeats carry a
 * session token of the pool, round-robin, with the session's machine.
 */
export function requests(name: ScenarioName, fixture: Fixture, runTag: string): () => BenchRequest {
  const route = routeOf(name, fixture);
  const app = fixture.programId;
  let n = 0;
  const signed = (body: string, contentType: string): BenchRequest => ({
    headers: signedHeaders(fixture.apiSecret, route, body, `${runTag}-${name}-${n++}`, contentType),
    body,
  });
  const bearer = (pool: Session[]): BenchRequest => {
    if (!pool.length) fail(`${name}: the session pool is empty`);
    const s = pool[n++ % pool.length];
    return {
      headers: { 'content-type': JSON_TYPE, authorization: `Bearer ${s.token}` },
      body: JSON.stringify({ machine_id: s.machine }),
    };
  };
  switch (name) {
    case 'v3':
    case 'v3-unsigned': {
      const { bound } = fixture;
      return () => {
        const i = n % bound.length;
        return signed(`app=${app}&kami=${bound[i]}&imei=${boundSerial(i)}`, FORM);
      };
    }
    case 'card-heartbeat':
      return () => bearer(fixture.cardSessions);
    case 'user-heartbeat':
      return () => bearer(fixture.userSessions);
    case 'user-login': {
      const { users } = fixture;
      if (!users.length) fail('user-login: no users were registered');
      return () => {
        const u = users[n % users.length];
        return signed(JSON.stringify({ app, username: u.username, password: u.password, machine_id: u.machine }), JSON_TYPE);
      };
    }
    default: {
      const nextBody = bodies(name, fixture, runTag);
      return () => ({ headers: { 'content-type': FORM }, body: nextBody() });
    }
  }
}

/** Whether a parsed answer body is a success of the scenario. */
export function succeeded(name: ScenarioName, body: unknown): boolean {
  if (STANDARD.has(name)) {
    if (prop(body, 'code') !== 0 || prop(body, 'success') !== true) return false;
    if (name === 'user-login') return typeof prop(body, 'data', 'session_token') === 'string';
    if (name === 'v3' || name === 'v3-unsigned') return typeof prop(body, 'token') === 'string';
    return true;
  }
  return (
    prop(body, 'status') === true &&
    (name === 'baseline' || name === 'baseline-envelope' || typeof prop(body, 'data', 'token') === 'string')
  );
}
