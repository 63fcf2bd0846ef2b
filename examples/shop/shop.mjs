#!/usr/bin/env node
// A card shop in one file (docs/shop-integration.md): for each payment, one order of cards, and
// the cards printed for delivery. Node 20+, standard library only.
//
//   CARDKEY_URL=https://keys.example.com CARDKEY_API_KEY=ck_… CARDKEY_PROJECT_ID=<project uuid> \
//     node examples/shop/shop.mjs payments.jsonl        (or - to read the payments from stdin)
//
// payments.jsonl: one paid order a line, {"order_id": "P-1001", "card_type_id": 3, "count": 1}.
// The shop's own order number is the `order_id`, so sending a payment twice (a retry after a lost
// answer, a rerun of the whole file) answers the same cards and charges once.
//
// Prints one JSON line per payment: {"order_id", "ok": true, "replayed", "cards": [codes]} or
// {"order_id", "ok": false, "status", "code", "error"}. Exit code 0 when every payment got its
// cards, 1 when one did not, 2 for a usage error or a key the service refuses.
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';

const RETRIES = Number(process.env.CARDKEY_RETRIES ?? 5);
const TIMEOUT_MS = Number(process.env.CARDKEY_TIMEOUT_MS ?? 15_000);
/** Answers worth the same request again: the service was busy or failing, not the order wrong. */
const RETRYABLE = new Set([429, 500, 502, 503, 504]);

const { CARDKEY_URL: base, CARDKEY_API_KEY: apiKey, CARDKEY_PROJECT_ID: projectId } = process.env;
const source = process.argv[2];
if (!base || !apiKey || !projectId || !source) {
  console.error('usage: CARDKEY_URL=… CARDKEY_API_KEY=ck_… CARDKEY_PROJECT_ID=… node shop.mjs <payments.jsonl | ->');
  process.exit(2);
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** One order, sent again until the service answers it: safe, because `order_id` makes it idempotent. */
async function order(payment) {
  const url = `${base.replace(/\/$/, '')}/admin/v1/projects/${projectId}/orders`;
  const body = JSON.stringify({ order_id: String(payment.order_id), card_type_id: payment.card_type_id, count: payment.count });
  for (let attempt = 0; ; attempt++) {
    let res;
    try {
      res = await fetch(url, {
        method: 'POST',
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body,
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
    } catch (error) {
      // No answer (connection lost, timeout): the order may or may not exist; asking again tells.
      if (attempt >= RETRIES) return { ok: false, status: null, code: null, error: `no answer: ${error.cause?.code ?? error.message}` };
      await sleep(500 * 2 ** attempt);
      continue;
    }
    const answer = await res.json().catch(() => ({}));
    if (res.ok) return { ok: true, replayed: res.status === 200, cards: answer.items.map((card) => card.code) };
    if (RETRYABLE.has(res.status) && attempt < RETRIES) {
      const wait = Number(res.headers.get('retry-after'));
      await sleep(wait > 0 ? wait * 1000 : 500 * 2 ** attempt);
      continue;
    }
    return { ok: false, status: res.status, code: answer.error?.code ?? null, error: answer.error?.message ?? res.statusText };
  }
}

const lines = createInterface({ input: source === '-' ? process.stdin : createReadStream(source), crlfDelay: Infinity });
let failed = false;
for await (const line of lines) {
  if (!line.trim()) continue;
  let payment;
  try {
    payment = JSON.parse(line);
  } catch {
    console.log(JSON.stringify({ order_id: null, ok: false, status: null, code: null, error: `not JSON: ${line.slice(0, 80)}` }));
    failed = true;
    continue;
  }
  const outcome = await order(payment);
  console.log(JSON.stringify({ order_id: payment.order_id, ...outcome }));
  if (outcome.ok) continue;
  failed = true;
  // 401: the key is unknown, revoked or expired; 403: outside its scope or addresses. Every later
  // payment would get the same: stop, and let the operator fix the key.
  if (outcome.status === 401 || outcome.status === 403) process.exit(2);
}
process.exit(failed ? 1 : 0);
