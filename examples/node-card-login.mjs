#!/usr/bin/env node
// A card login with the official client (sdk/), Node >= 18:
//   version check -> SDK card login -> a few heartbeats -> stop.
//
// Environment (see examples/setup-demo.sh): BASE_URL, PROGRAM_ID, API_SECRET, CARD_KEY;
// MACHINE_ID (default: this device's machine code), APP_VERSION (default 1.0.0), HEARTBEAT_MS (default 5000),
// BEATS (default 3). Exit codes: 0 done, 1 login or a heartbeat failed, 2 session ended, 3 bad
// environment.
//
// Build the client first: `cd sdk && npm install && npm run build`.

// The client is CommonJS; this example loads it from the checkout. An application depends on the
// package instead and writes:  import { Client, machineCode } from '@cardkey/client';
import sdk from '../sdk/dist/index.js';

const { Client, machineCode } = sdk;

const env = (name, fallback) => process.env[name] || fallback;
const missing = ['BASE_URL', 'PROGRAM_ID', 'API_SECRET', 'CARD_KEY'].filter((name) => !process.env[name]);
if (missing.length > 0) {
  console.error(`Missing ${missing.join(', ')}: run  eval "$(examples/setup-demo.sh)"  first`);
  process.exit(3);
}
// This device's machine code (机器码): a stable id the system keeps, hashed with the program ID, the
// same in every official client (docs/protocol.md, "The machine code"). MACHINE_ID overrides it.
let machineId = process.env.MACHINE_ID;
if (!machineId) {
  try {
    machineId = machineCode(process.env.PROGRAM_ID);
  } catch (error) {
    console.error(`${error.message}: set MACHINE_ID to a stable code of this device`);
    process.exit(3);
  }
}
const intervalMs = Number(env('HEARTBEAT_MS', '5000'));
const beats = Number(env('BEATS', '3'));

const client = new Client({
  baseUrl: process.env.BASE_URL,
  programId: process.env.PROGRAM_ID, // the public 8-digit program ID
  apiSecret: process.env.API_SECRET, // signs every V3 and SDK request (HMAC-SHA256)
});

// Optional: is there a newer version of this program? A program without published versions
// answers success with latest_version null; a refusal here does not stop the login.
const version = await client.checkVersion({ version: env('APP_VERSION', '1.0.0') });
if (version.success && version.data?.latest_version) {
  console.log(`latest version ${version.data.latest_version}, update available: ${version.data.update_available}`);
} else if (!version.success) {
  console.log(`version check skipped: ${version.message} (code ${version.code})`);
}

// Every method answers a Result and never throws for what the service or the network does.
const login = await client.cardLogin({ cardKey: process.env.CARD_KEY, machineId });
if (!login.success) {
  // Business rejections (invalid, expired, banned card, device limit) are not worth retrying.
  console.error(`card login failed: ${login.message} (code ${login.code}, request_id ${login.requestId ?? '-'})`);
  process.exit(1);
}
const { code, machine_code, expires_at, session_expires_at } = login.data;
console.log(`card login ok: card ${code} on ${machine_code}, valid until ${expires_at}, session until ${session_expires_at}`);

// The client holds the session; the loop renews it. Stop after BEATS heartbeats.
// The service moves the expiry only in the second half of a session's life: say so only then.
let until = session_expires_at;
let count = 0;
const counted = (ok) => {
  count += 1;
  if (!ok) process.exitCode = 1;
  if (count >= beats) heartbeat.stop(); // nothing left to wait for: the script ends
};
const heartbeat = client.startHeartbeat({
  intervalMs,
  onBeat: (beat) => {
    const moved = beat.data.session_expires_at !== until;
    until = beat.data.session_expires_at;
    console.log(`heartbeat ${count + 1}: ok${moved ? `, session renewed until ${until}` : ''}`);
    counted(true);
  },
  // Anything else (network, quota...): the loop keeps its rhythm.
  onError: (result) => {
    console.error(`heartbeat ${count + 1} failed: ${result.message} (code ${result.code}, request_id ${result.requestId ?? '-'})`);
    counted(false);
  },
  // Forced offline, card banned or expired: the session is already cleared. endedBy says why
  // (card_banned, forced_offline, ...): tell the user that rather than just "log in again".
  onSessionEnded: (result) => {
    console.error(`session ended: ${result.endedBy ?? result.message} at ${result.endedAt ?? '-'} (code ${result.code}, request_id ${result.requestId ?? '-'})`);
    process.exit(2);
  },
});
