#include "support.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <sodium.h>

static int passed, failed;
const ck_pinned_key TEST_KEYS[1] = {{TEST_KID, TEST_PUBLIC_KEY}};
static const char *TEST_SEED_HEX = "9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60";

int check_that(int ok, const char *file, int line, const char *what) {
  if (ok) passed++;
  else {
    failed++;
    fprintf(stderr, "FAILED %s:%d: %s\n", file, line, what);
  }
  return ok;
}

int check_str(const char *actual, const char *expected, const char *file, int line, const char *what) {
  int ok = actual != NULL && expected != NULL ? strcmp(actual, expected) == 0 : actual == expected;
  if (!ok) fprintf(stderr, "  %s is \"%s\", expected \"%s\"\n", what, actual ? actual : "(null)", expected ? expected : "(null)");
  return check_that(ok, file, line, what);
}

int check_int(long long actual, long long expected, const char *file, int line, const char *what) {
  if (actual != expected) fprintf(stderr, "  %s is %lld, expected %lld\n", what, actual, expected);
  return check_that(actual == expected, file, line, what);
}

int test_failures(void) { return failed; }

int test_finish(const char *name) {
  printf("%s: %d passed, %d failed\n", name, passed, failed);
  return failed == 0 && passed > 0 ? 0 : 1;
}

cJSON *load_vectors(const char *path) {
  FILE *file = path ? fopen(path, "rb") : NULL;
  if (file == NULL) {
    fprintf(stderr, "cannot open the vectors %s\n", path ? path : "(none given)");
    exit(2);
  }
  static char text[256 * 1024];
  size_t len = fread(text, 1, sizeof text - 1, file);
  fclose(file);
  text[len] = '\0';
  cJSON *vectors = cJSON_ParseWithLength(text, len);
  if (vectors == NULL) {
    fprintf(stderr, "the vectors are not JSON\n");
    exit(2);
  }
  return vectors;
}

const char *json_text(const cJSON *object, const char *name) {
  const cJSON *item = cJSON_GetObjectItemCaseSensitive(object, name);
  return cJSON_IsString(item) ? item->valuestring : NULL;
}

void fake_init(fake_service *fake) {
  memset(fake, 0, sizeof *fake);
  pthread_mutex_init(&fake->lock, NULL);
}

void fake_destroy(fake_service *fake) { pthread_mutex_destroy(&fake->lock); }

void fake_add(fake_service *fake, fake_answer answer) {
  pthread_mutex_lock(&fake->lock);
  if (fake->answer_count < FAKE_MAX) fake->answers[fake->answer_count++] = answer;
  pthread_mutex_unlock(&fake->lock);
}

void fake_set(fake_service *fake, fake_answer answer) {
  pthread_mutex_lock(&fake->lock);
  fake->answers[0] = answer;
  fake->answer_count = 1;
  fake->calls = 0;
  pthread_mutex_unlock(&fake->lock);
}

size_t fake_calls(fake_service *fake) {
  pthread_mutex_lock(&fake->lock);
  size_t calls = fake->calls;
  pthread_mutex_unlock(&fake->lock);
  return calls;
}

const char *fake_header(fake_service *fake, size_t call, const char *name) {
  if (call >= FAKE_MAX) return NULL;
  size_t len = strlen(name);
  for (size_t i = 0; i < 8; i++) {
    const char *line = fake->headers[call][i];
    if (strncasecmp(line, name, len) == 0 && line[len] == ':') return line + len + 2;
  }
  return NULL;
}

/* The clear `nonce` form field (Connect, plain legacy), "" when none. */
static void form_nonce(const char *body, char *out, size_t size) {
  out[0] = '\0';
  const char *at = strstr(body, "nonce=");
  while (at != NULL && at != body && at[-1] != '&') at = strstr(at + 1, "nonce=");
  if (at == NULL) return;
  at += 6;
  size_t len = strcspn(at, "&");
  if (len >= size) len = size - 1;
  memcpy(out, at, len);
  out[len] = '\0';
}

static void sign_answer(ck_http_answer *answer, const fake_answer *script, const ck_http_request *request,
                        const char *nonce, const char *body, size_t body_len, int status) {
  unsigned char seed[32], pk[32], sk[64], digest[32], sig[64];
  sodium_hex2bin(seed, sizeof seed, TEST_SEED_HEX, 64, NULL, NULL, NULL);
  crypto_sign_seed_keypair(pk, sk, seed);
  const char *other = "{\"another\":\"request\"}";
  if (script->signing == FAKE_SIGNED_OTHER_REQUEST) crypto_hash_sha256(digest, (const unsigned char *)other, strlen(other));
  else crypto_hash_sha256(digest, request->body, request->body_len);
  char hex[65], head[1024], timestamp[24], signature[100];
  sodium_bin2hex(hex, sizeof hex, digest, sizeof digest);
  long long now = (long long)time(NULL) - (script->signing == FAKE_SIGNED_STALE ? 1000 : 0);
  snprintf(timestamp, sizeof timestamp, "%lld", now);
  int head_len = script->signing == FAKE_SIGNED_V1
                     ? snprintf(head, sizeof head, "svc-response-v1\nPOST\n%s\n%s\n%s\n%d\n", request->path, nonce, timestamp, status)
                     : snprintf(head, sizeof head, "svc-response-v2\nPOST\n%s\n%s\n%s\n%d\n%s\n", request->path, nonce, timestamp, status, hex);
  unsigned char *message = malloc((size_t)head_len + body_len + 1);
  memcpy(message, head, (size_t)head_len);
  memcpy(message + head_len, body, body_len);
  crypto_sign_detached(sig, NULL, message, (unsigned long long)head_len + body_len, sk);
  free(message);
  sodium_bin2base64(signature, sizeof signature, sig, sizeof sig, sodium_base64_VARIANT_URLSAFE_NO_PADDING);
  ck_answer_add_header(answer, "X-Svc-Response-Timestamp", timestamp);
  ck_answer_add_header(answer, "X-Svc-Response-Key", TEST_KID);
  ck_answer_add_header(answer, "X-Svc-Response-Signature", signature);
  ck_answer_add_header(answer, "X-Svc-Response-Version", script->signing == FAKE_SIGNED_V1 ? "1" : "2");
}

/* A body whose "data":{...} is replaced by "data":"<sealed>" (the legacy transport's answer). */
static char *sealed_body(const fake_answer *script) {
  const char *start = strstr(script->body, "\"data\":");
  const char *object = start ? start + 7 : NULL;
  if (object == NULL || *object != '{') return NULL;
  int depth = 0;
  const char *end = object;
  for (; *end; end++) {
    if (*end == '{') depth++;
    if (*end == '}' && --depth == 0) break;
  }
  size_t plain_len = (size_t)(end - object) + 1;
  char sealed[8192];
  if (!ck_transport_seal(script->seal_mode, script->seal_key, (const unsigned char *)object, plain_len, NULL, sealed, sizeof sealed))
    return NULL;
  size_t len = strlen(script->body) + strlen(sealed) + 8;
  char *body = malloc(len);
  snprintf(body, len, "%.*s\"%s\"%s", (int)(object - script->body), script->body, sealed, end + 1);
  return body;
}

int fake_exchange(void *user, const ck_http_request *request, ck_http_answer *answer) {
  fake_service *fake = user;
  pthread_mutex_lock(&fake->lock);
  size_t call = fake->calls++;
  fake_answer script = fake->answers[call < fake->answer_count ? call : fake->answer_count - 1];
  if (call < FAKE_MAX) {
    snprintf(fake->paths[call], sizeof fake->paths[call], "%s", request->path);
    snprintf(fake->bodies[call], sizeof fake->bodies[call], "%.*s", (int)request->body_len, (const char *)request->body);
    fake->nonces[call][0] = '\0';
    for (size_t i = 0; i < request->header_count && i < 8; i++) {
      snprintf(fake->headers[call][i], sizeof fake->headers[call][i], "%s", request->headers[i]);
      if (strncasecmp(request->headers[i], "X-Svc-Nonce: ", 13) == 0)
        snprintf(fake->nonces[call], sizeof fake->nonces[call], "%s", request->headers[i] + 13);
    }
  }
  char nonce[128];
  snprintf(nonce, sizeof nonce, "%s", call < FAKE_MAX ? fake->nonces[call] : "");
  pthread_mutex_unlock(&fake->lock);
  if (script.network_failure) return 1;

  char *sealed = script.seal_mode ? sealed_body(&script) : NULL;
  const char *body = sealed ? sealed : script.body ? script.body : "";
  if (nonce[0] == '\0' && strcmp(request->path, "/api/app") != 0) {
    char sent[4096];
    snprintf(sent, sizeof sent, "%.*s", (int)request->body_len, (const char *)request->body);
    form_nonce(sent, nonce, sizeof nonce);
  }
  int status = script.status ? script.status : 200;
  ck_answer_set_status(answer, status);
  ck_answer_add_header(answer, "Content-Type", script.content_type ? script.content_type : "application/json; charset=utf-8");
  ck_answer_add_header(answer, "X-Request-Id", "fakefakefakefakefakefakefakefake");
  if (script.retry_after) ck_answer_add_header(answer, "Retry-After", script.retry_after);
  if (script.signing != FAKE_UNSIGNED) sign_answer(answer, &script, request, nonce, body, strlen(body), status);
  ck_answer_append_body(answer, body, strlen(body));
  free(sealed);
  return 0;
}

ck_client *fake_client(fake_service *fake, const ck_pinned_key *keys, size_t key_count, const char *transport_mode) {
  ck_config config;
  ck_config_init(&config);
  config.base_url = "https://licence.example.com/";
  config.program_id = "48213907";
  config.api_secret = "sk_test_4f3c2a1b9e8d7c6b";
  config.legacy_secret = "lg_test_0a9b8c7d";
  config.retry_delay_ms = 1;
  config.response_keys = keys;
  config.response_key_count = key_count;
  config.transport_mode = transport_mode;
  config.transport_key = "9f2c4e6a8b0d1f3e5a7c9e1b3d5f7a9c";
  config.exchange = fake_exchange;
  config.exchange_user = fake;
  char error[200];
  ck_client *client = ck_client_new(&config, error, sizeof error);
  if (client == NULL) fprintf(stderr, "fake_client: %s\n", error);
  return client;
}
