/* The client handle: configuration, the calls of every family, and the held session. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <cjson/cJSON.h>
#include <curl/curl.h>
#include <sodium.h>

#include "internal.h"

#define FORM "application/x-www-form-urlencoded"
#define JSON "application/json"
#define SECRET_MAX 1024
#define MAX_USERNAME 32

/* ---- configuration ---- */

void ck_config_init(ck_config *config) {
  memset(config, 0, sizeof *config);
  config->timeout_ms = 10000;
  config->connect_timeout_ms = 5000;
  config->retries = 2;
  config->retry_delay_ms = 250;
  config->response_max_skew_seconds = 300;
}

static char *copy_of(const char *text) {
  size_t len = strlen(text);
  char *copy = malloc(len + 1);
  if (copy != NULL) memcpy(copy, text, len + 1);
  return copy;
}

static void wipe_free(char *text) {
  if (text == NULL) return;
  sodium_memzero(text, strlen(text));
  free(text);
}

static ck_client *refuse_config(ck_client *client, char *error, size_t error_size, const char *why) {
  if (error != NULL && error_size > 0) ck_copy_text(error, error_size, why);
  ck_client_free(client);
  return NULL;
}

static const char *check_config(const ck_config *config) {
  if (config->base_url == NULL || (strncasecmp(config->base_url, "http://", 7) != 0 && strncasecmp(config->base_url, "https://", 8) != 0))
    return "base_url must be an http or https address";
  if (!ck_text_ok(config->base_url, 2048)) return "base_url is too long";
  if (!ck_text_ok(config->program_id, 32)) return "program_id is required (the public 8-digit program ID)";
  if (!ck_text_ok(config->api_secret, SECRET_MAX)) return "api_secret is required";
  if (config->legacy_secret != NULL && !ck_text_ok(config->legacy_secret, SECRET_MAX)) return "legacy_secret is empty or too long";
  if (config->timeout_ms <= 0 || config->timeout_ms > 600000) return "timeout_ms must be 1..600000";
  if (config->connect_timeout_ms <= 0 || config->connect_timeout_ms > 600000) return "connect_timeout_ms must be 1..600000";
  if (config->retries < 0 || config->retries > 5) return "retries must be 0..5";
  if (config->retry_delay_ms < 0 || config->retry_delay_ms > 60000) return "retry_delay_ms must be 0..60000";
  if (config->response_max_skew_seconds < 0 || config->response_max_skew_seconds > 86400) return "response_max_skew_seconds must be 0..86400";
  if (config->response_key_count > CK_MAX_PINNED_KEYS) return "at most 16 response keys";
  if (config->response_key_count > 0 && config->response_keys == NULL) return "response_keys is NULL";
  for (size_t i = 0; i < config->response_key_count; i++) {
    unsigned char raw[32];
    if (!ck_text_ok(config->response_keys[i].kid, 64) || !ck_public_key_bytes(config->response_keys[i].public_key, raw))
      return "a response key is not a kid and an Ed25519 public key (base64url of 32 bytes)";
  }
  int transport = config->transport_mode != NULL && strcmp(config->transport_mode, "none") != 0;
  if (transport && !ck_transport_mode_ok(config->transport_mode)) return "transport_mode must be none, rc4, aes or aes-gcm";
  if (transport && !ck_text_ok(config->transport_key, SECRET_MAX)) return "transport_key is required with a transport_mode";
  if (config->connect_field_name_count > CK_MAX_FIELD_NAMES) return "at most 16 Connect field names";
  for (size_t i = 0; i < config->connect_field_name_count; i++)
    if (config->connect_field_names == NULL || !ck_text_ok(config->connect_field_names[i].standard, 64) ||
        !ck_text_ok(config->connect_field_names[i].custom, 64))
      return "a Connect field name is empty or too long";
  return NULL;
}

ck_client *ck_client_new(const ck_config *config, char *error, size_t error_size) {
  if (error != NULL && error_size > 0) error[0] = '\0';
  if (config == NULL) return refuse_config(NULL, error, error_size, "config is NULL");
  const char *why = check_config(config);
  if (why != NULL) return refuse_config(NULL, error, error_size, why);
  if (sodium_init() < 0) return refuse_config(NULL, error, error_size, "libsodium could not start");
  ck_client *client = calloc(1, sizeof *client);
  if (client == NULL) return refuse_config(NULL, error, error_size, "out of memory");
  /* libcurl counts its own initialisations: one per client, undone by ck_client_free. */
  if (config->exchange == NULL && curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
    free(client);
    return refuse_config(NULL, error, error_size, "libcurl could not start");
  }
  client->exchange = config->exchange;
  client->exchange_user = config->exchange_user;
  pthread_mutex_init(&client->lock, NULL);
  pthread_condattr_t attributes;
  pthread_condattr_init(&attributes);
#ifndef __APPLE__
  pthread_condattr_setclock(&attributes, CK_WAIT_CLOCK);
#endif
  pthread_cond_init(&client->changed, &attributes);
  pthread_condattr_destroy(&attributes);
  client->loop.stopped = 1;

  size_t base_len = strlen(config->base_url);
  while (base_len > 0 && config->base_url[base_len - 1] == '/') base_len--;
  client->base_url = copy_of(config->base_url);
  if (client->base_url != NULL) client->base_url[base_len] = '\0';
  client->program_id = copy_of(config->program_id);
  client->api_secret = copy_of(config->api_secret);
  int ok = client->base_url && client->program_id && client->api_secret;
  if (ok && config->legacy_secret) ok = (client->legacy_secret = copy_of(config->legacy_secret)) != NULL;
  if (ok && config->transport_mode && strcmp(config->transport_mode, "none") != 0)
    ok = (client->transport_mode = copy_of(config->transport_mode)) && (client->transport_key = copy_of(config->transport_key));
  client->pinned = config->response_keys != NULL;
  for (size_t i = 0; ok && i < config->response_key_count; i++, client->key_count++)
    ok = (client->kids[i] = copy_of(config->response_keys[i].kid)) &&
         (client->public_keys[i] = copy_of(config->response_keys[i].public_key));
  for (size_t i = 0; ok && i < config->connect_field_name_count; i++, client->field_name_count++)
    ok = (client->field_standard[i] = copy_of(config->connect_field_names[i].standard)) &&
         (client->field_custom[i] = copy_of(config->connect_field_names[i].custom));
  client->timeout_ms = config->timeout_ms;
  client->connect_timeout_ms = config->connect_timeout_ms;
  client->retries = config->retries;
  client->retry_delay_ms = config->retry_delay_ms;
  client->max_skew_seconds = config->response_max_skew_seconds;
  if (!ok) return refuse_config(client, error, error_size, "out of memory");
  return client;
}

void ck_client_free(ck_client *client) {
  if (client == NULL) return;
  ck_heartbeat_stop(client);
  wipe_free(client->base_url);
  wipe_free(client->program_id);
  wipe_free(client->api_secret);
  wipe_free(client->legacy_secret);
  wipe_free(client->transport_mode);
  wipe_free(client->transport_key);
  for (size_t i = 0; i < CK_MAX_PINNED_KEYS; i++) {
    free(client->kids[i]);
    free(client->public_keys[i]);
  }
  for (size_t i = 0; i < CK_MAX_FIELD_NAMES; i++) {
    free(client->field_standard[i]);
    free(client->field_custom[i]);
  }
  if (client->exchange == NULL) curl_global_cleanup();
  pthread_cond_destroy(&client->changed);
  pthread_mutex_destroy(&client->lock);
  sodium_memzero(&client->session, sizeof client->session);
  free(client);
}

/* ---- building requests ---- */

typedef struct signed_request {
  const char *path;
  const char *content_type;
  const char *body;
} signed_request;

static int standard_headers(ck_attempt *attempt, const char *content_type) {
  return ck_attempt_header(attempt, "Content-Type", content_type) && ck_attempt_header(attempt, "Accept", JSON);
}

/* V3 and SDK: HMAC headers over the body, a fresh timestamp and nonce per attempt. */
static int build_signed(const ck_client *client, void *context, ck_attempt *attempt) {
  const signed_request *request = context;
  char timestamp[24], signature[65];
  snprintf(timestamp, sizeof timestamp, "%lld", ck_now());
  ck_new_nonce(attempt->nonce);
  size_t body_len = strlen(request->body);
  return ck_buf_append(&attempt->body, request->body, body_len) &&
         ck_hmac_signature(client->api_secret, "POST", request->path, timestamp, attempt->nonce,
                           (const unsigned char *)request->body, body_len, signature, sizeof signature) &&
         standard_headers(attempt, request->content_type) && ck_attempt_header(attempt, "X-Svc-Timestamp", timestamp) &&
         ck_attempt_header(attempt, "X-Svc-Nonce", attempt->nonce) && ck_attempt_header(attempt, "X-Svc-Signature", signature);
}

static int argument_error(ck_result *result, const char *what) {
  char message[160];
  snprintf(message, sizeof message, "%s is missing, empty or too long", what);
  return ck_fail(result, CK_INVALID_ARGUMENT, 0, message);
}

/* The standard family's card logins carry token and statecode at the top: offer them in data too. */
static void top_level_into_data(ck_result *result) {
  cJSON *root = ck_result_tree(result);
  cJSON *data = root ? cJSON_GetObjectItemCaseSensitive(root, "data") : NULL;
  if (!result->success || !cJSON_IsObject(data)) return;
  const char *names[] = {"token", "statecode"};
  for (size_t i = 0; i < 2; i++) {
    cJSON *value = cJSON_GetObjectItemCaseSensitive(root, names[i]);
    cJSON *copy = value ? cJSON_Duplicate(value, 1) : NULL;
    if (copy == NULL) continue;
    cJSON_DeleteItemFromObjectCaseSensitive(data, names[i]);
    cJSON_AddItemToObject(data, names[i], copy);
  }
}

/* An SDK request: JSON with `app` first, the pairs given (NULL-terminated name/value list). */
static int sdk_call(ck_client *client, const char *path, const char *const *pairs, long ttl_seconds, int idempotent,
                    int success_code, ck_result *result) {
  cJSON *object = cJSON_CreateObject();
  int ok = object != NULL && cJSON_AddStringToObject(object, "app", client->program_id) != NULL;
  for (size_t i = 0; ok && pairs[i] != NULL; i += 2) ok = cJSON_AddStringToObject(object, pairs[i], pairs[i + 1]) != NULL;
  if (ok && ttl_seconds > 0) ok = cJSON_AddNumberToObject(object, "ttl_seconds", (double)ttl_seconds) != NULL;
  char *body = ok ? cJSON_PrintUnformatted(object) : NULL;
  cJSON_Delete(object);
  if (body == NULL) return ck_fail(result, CK_OUT_OF_MEMORY, 0, "Out of memory while building the request");
  signed_request request = {path, JSON, body};
  ck_call call = {"standard", path, idempotent, success_code, build_signed, &request};
  int success = ck_perform(client, &call, result);
  sodium_memzero(body, strlen(body)); /* a password may be inside */
  cJSON_free(body);
  return success;
}

/* ---- the session ---- */

static void hold_session(ck_client *client, ck_session_type type, const char *machine_id, const ck_result *result,
                         long long owner_id) {
  ck_session session;
  memset(&session, 0, sizeof session);
  session.type = type;
  long long interval = 0;
  ck_result_text(result, "data.session_token", session.token, sizeof session.token);
  ck_result_text(result, "data.session_expires_at", session.expires_at, sizeof session.expires_at);
  if (ck_result_int(result, "data.heartbeat_interval_seconds", &interval) && interval > 0 && interval < 86400)
    session.heartbeat_interval_seconds = (long)interval;
  ck_copy_text(session.machine_id, sizeof session.machine_id, machine_id);
  session.owner_id = owner_id;
  pthread_mutex_lock(&client->lock);
  client->session = session;
  client->has_session = 1;
  client->session_generation++;
  pthread_mutex_unlock(&client->lock);
  sodium_memzero(&session, sizeof session);
}

int ck_session_get(ck_client *client, ck_session *out) {
  if (client == NULL || out == NULL) return 0;
  pthread_mutex_lock(&client->lock);
  int held = client->has_session;
  if (held) *out = client->session;
  else memset(out, 0, sizeof *out);
  pthread_mutex_unlock(&client->lock);
  return held;
}

int ck_session_restore(ck_client *client, const ck_session *session) {
  if (client == NULL || session == NULL || (session->type != CK_SESSION_CARD && session->type != CK_SESSION_USER) ||
      !ck_text_ok(session->token, CK_TOKEN_MAX - 1) || !ck_text_ok(session->machine_id, CK_FIELD_MAX - 1))
    return 0;
  pthread_mutex_lock(&client->lock);
  client->session = *session;
  client->session.expires_at[CK_SHORT_MAX - 1] = '\0';
  client->has_session = 1;
  client->session_generation++;
  pthread_mutex_unlock(&client->lock);
  return 1;
}

void ck_session_clear(ck_client *client) {
  if (client == NULL) return;
  pthread_t thread;
  int must_join = 0;
  pthread_mutex_lock(&client->lock);
  client->has_session = 0;
  client->session_generation++;
  sodium_memzero(&client->session, sizeof client->session);
  ck_loop_stop_locked(client, &thread, &must_join);
  pthread_mutex_unlock(&client->lock);
  ck_loop_join(thread, must_join);
}

/* ---- SDK v1 ---- */

int ck_card_login(ck_client *client, const char *card_key, const char *machine_id, ck_result *result) {
  if (result == NULL) return 0;
  if (client == NULL) return argument_error(result, "client");
  if (!ck_text_ok(card_key, CK_MAX_INPUT_BYTES)) return argument_error(result, "card_key");
  if (!ck_text_ok(machine_id, CK_MAX_INPUT_BYTES)) return argument_error(result, "machine_id");
  const char *pairs[] = {"card_key", card_key, "machine_id", machine_id, NULL};
  sdk_call(client, "/api/v1/cards/login", pairs, 0, 1, -1, result);
  top_level_into_data(result);
  if (!ck_bind_card(result, machine_id, card_key)) return 0;
  long long card_id = 0;
  ck_result_int(result, "data.id", &card_id);
  hold_session(client, CK_SESSION_CARD, machine_id, result, card_id);
  return 1;
}

int ck_card_checkout(ck_client *client, const char *card_key, const char *machine_id, long ttl_seconds, ck_result *result) {
  if (result == NULL) return 0;
  if (client == NULL) return argument_error(result, "client");
  if (!ck_text_ok(card_key, CK_MAX_INPUT_BYTES)) return argument_error(result, "card_key");
  if (!ck_text_ok(machine_id, CK_MAX_INPUT_BYTES)) return argument_error(result, "machine_id");
  if (ttl_seconds < 0) return argument_error(result, "ttl_seconds");
  const char *pairs[] = {"card_key", card_key, "machine_id", machine_id, NULL};
  return sdk_call(client, "/api/v1/cards/checkout", pairs, ttl_seconds, 1, -1, result);
}

int ck_card_trial(ck_client *client, const char *machine_id, ck_result *result) {
  if (result == NULL) return 0;
  if (client == NULL) return argument_error(result, "client");
  if (!ck_text_ok(machine_id, CK_MAX_INPUT_BYTES)) return argument_error(result, "machine_id");
  const char *pairs[] = {"machine_id", machine_id, NULL};
  /* Safe to retry: a repeat answers the same card. The answer must name this device. */
  sdk_call(client, "/api/v1/cards/trial", pairs, 0, 1, 0, result);
  return ck_bind_card(result, machine_id, NULL);
}

int ck_card_topup(ck_client *client, const char *card_key, const char *topup_key, ck_result *result) {
  if (result == NULL) return 0;
  if (client == NULL) return argument_error(result, "client");
  if (!ck_text_ok(card_key, CK_MAX_INPUT_BYTES)) return argument_error(result, "card_key");
  if (!ck_text_ok(topup_key, CK_MAX_INPUT_BYTES)) return argument_error(result, "topup_key");
  const char *pairs[] = {"card_key", card_key, "topup_key", topup_key, NULL};
  /* Never retried: a repeat would find the top-up card consumed. */
  return sdk_call(client, "/api/v1/cards/topup", pairs, 0, 0, 0, result);
}

int ck_card_info(ck_client *client, const char *card_key, ck_result *result) {
  if (result == NULL) return 0;
  if (client == NULL) return argument_error(result, "client");
  if (!ck_text_ok(card_key, CK_MAX_INPUT_BYTES)) return argument_error(result, "card_key");
  const char *pairs[] = {"card_key", card_key, NULL};
  return sdk_call(client, "/api/v1/cards/info", pairs, 0, 1, 0, result);
}

int ck_card_unbind(ck_client *client, const char *card_key, const char *machine_id, ck_result *result) {
  if (result == NULL) return 0;
  if (client == NULL) return argument_error(result, "client");
  if (!ck_text_ok(card_key, CK_MAX_INPUT_BYTES)) return argument_error(result, "card_key");
  if (!ck_text_ok(machine_id, CK_MAX_INPUT_BYTES)) return argument_error(result, "machine_id");
  const char *pairs[] = {"card_key", card_key, "machine_id", machine_id, NULL};
  /* Success is code 1 on this route; never retried: each unbind may deduct time. */
  sdk_call(client, "/api/v1/cards/unbind", pairs, 0, 0, 1, result);
  return ck_bind_card(result, machine_id, card_key);
}

static int user_call(ck_client *client, const char *path, const char *username, const char *password,
                     const char *machine_id, int idempotent, ck_result *result) {
  if (result == NULL) return 0;
  if (client == NULL) return argument_error(result, "client");
  if (!ck_text_ok(username, MAX_USERNAME)) return argument_error(result, "username");
  if (!ck_text_ok(password, CK_MAX_INPUT_BYTES)) return argument_error(result, "password");
  if (!ck_text_ok(machine_id, CK_MAX_INPUT_BYTES)) return argument_error(result, "machine_id");
  const char *pairs[] = {"username", username, "password", password, "machine_id", machine_id, NULL};
  return sdk_call(client, path, pairs, 0, idempotent, -1, result);
}

int ck_user_register(ck_client *client, const char *username, const char *password, const char *machine_id, ck_result *result) {
  /* Never retried: a repeat would find the name taken. */
  return user_call(client, "/api/v1/users/register", username, password, machine_id, 0, result);
}

int ck_user_login(ck_client *client, const char *username, const char *password, const char *machine_id, ck_result *result) {
  if (!user_call(client, "/api/v1/users/login", username, password, machine_id, 1, result)) return 0;
  /* The machine finally bound (the policy may keep another); the user is checked on heartbeats. */
  char bound[CK_FIELD_MAX];
  if (!ck_result_text(result, "data.machine_id", bound, sizeof bound) || bound[0] == '\0') ck_copy_text(bound, sizeof bound, machine_id);
  long long user_id = 0;
  ck_result_int(result, "data.profile.user_id", &user_id);
  hold_session(client, CK_SESSION_USER, bound, result, user_id);
  return 1;
}

int ck_check_version(ck_client *client, const char *version, ck_result *result) {
  if (result == NULL) return 0;
  if (client == NULL) return argument_error(result, "client");
  if (!ck_text_ok(version, 64)) return argument_error(result, "version");
  const char *pairs[] = {"version", version, NULL};
  return sdk_call(client, "/api/v1/apps/version", pairs, 0, 1, -1, result);
}

/* ---- heartbeats ---- */

typedef struct heartbeat_request {
  const char *token;
  const char *body;
} heartbeat_request;

static int build_heartbeat(const ck_client *client, void *context, ck_attempt *attempt) {
  (void)client;
  const heartbeat_request *request = context;
  char bearer[CK_TOKEN_MAX + 8];
  snprintf(bearer, sizeof bearer, "Bearer %s", request->token);
  /* A nonce binds the signed answer to this beat: an old answer cannot be replayed. */
  ck_new_nonce(attempt->nonce);
  int ok = ck_buf_append_str(&attempt->body, request->body) && standard_headers(attempt, JSON) &&
           ck_attempt_header(attempt, "Authorization", bearer) && ck_attempt_header(attempt, "X-Svc-Nonce", attempt->nonce);
  sodium_memzero(bearer, sizeof bearer);
  return ok;
}

/* Defined in heartbeat.c: tells the loop, once, that the session ended. */
void ck_loop_session_ended(ck_client *client, unsigned long generation, const ck_result *result);

static int heartbeat(ck_client *client, ck_session_type type, ck_result *result) {
  if (result == NULL) return 0;
  if (client == NULL) return argument_error(result, "client");
  ck_session session;
  pthread_mutex_lock(&client->lock);
  int held = client->has_session && client->session.type == type;
  unsigned long generation = client->session_generation;
  if (held) session = client->session;
  pthread_mutex_unlock(&client->lock);
  if (!held)
    return ck_fail(result, CK_NO_SESSION, 0, type == CK_SESSION_CARD ? "No card session: log in first" : "No user session: log in first");

  int ok = 0;
  cJSON *object = cJSON_CreateObject();
  char *body = object && cJSON_AddStringToObject(object, "machine_id", session.machine_id) ? cJSON_PrintUnformatted(object) : NULL;
  cJSON_Delete(object);
  if (body == NULL) {
    sodium_memzero(&session, sizeof session);
    return ck_fail(result, CK_OUT_OF_MEMORY, 0, "Out of memory while building the request");
  }
  heartbeat_request request = {session.token, body};
  const char *path = type == CK_SESSION_CARD ? "/api/v1/cards/heartbeat" : "/api/v1/users/heartbeat";
  ck_call call = {"standard", path, 1, -1, build_heartbeat, &request};
  ck_perform(client, &call, result);
  cJSON_free(body);
  /* The token travels in a header, outside the signed digest: the answer must name this session's owner. */
  ok = type == CK_SESSION_CARD ? ck_bind_owner(result, "card_id", session.owner_id, "card")
                               : ck_bind_owner(result, "user_id", session.owner_id, "user");
  sodium_memzero(&session, sizeof session);

  int ended = !result->success && (result->code == CK_SESSION_INVALID || result->code == CK_SESSION_TYPE_MISMATCH);
  pthread_mutex_lock(&client->lock);
  int same = client->has_session && client->session_generation == generation;
  if (same && ok) {
    char expires[CK_SHORT_MAX];
    if (ck_result_text(result, "data.session_expires_at", expires, sizeof expires))
      ck_copy_text(client->session.expires_at, sizeof client->session.expires_at, expires);
  }
  if (same && ended) {
    client->has_session = 0;
    client->session_generation++;
    sodium_memzero(&client->session, sizeof client->session);
  }
  pthread_mutex_unlock(&client->lock);
  if (same && ended) ck_loop_session_ended(client, generation, result);
  return ok;
}

int ck_card_heartbeat(ck_client *client, ck_result *result) { return heartbeat(client, CK_SESSION_CARD, result); }
int ck_user_heartbeat(ck_client *client, ck_result *result) { return heartbeat(client, CK_SESSION_USER, result); }

/* ---- HTTP V3 ---- */

int ck_v3_card_login(ck_client *client, const char *card_key, const char *machine_id, ck_result *result) {
  if (result == NULL) return 0;
  if (client == NULL) return argument_error(result, "client");
  if (!ck_text_ok(card_key, CK_MAX_INPUT_BYTES)) return argument_error(result, "card_key");
  if (!ck_text_ok(machine_id, CK_MAX_INPUT_BYTES)) return argument_error(result, "machine_id");
  ck_buf form;
  ck_buf_init(&form, CK_MAX_REQUEST_BYTES);
  ck_buf_append_form(&form, "app", client->program_id);
  ck_buf_append_form(&form, "kami", card_key);
  ck_buf_append_form(&form, "imei", machine_id);
  const char *body = ck_buf_cstr(&form);
  if (body == NULL) {
    ck_buf_free(&form);
    return ck_fail(result, CK_OUT_OF_MEMORY, 0, "Out of memory while building the request");
  }
  const char *path = "/api/legacy/v3/cards/login";
  signed_request request = {path, FORM, body};
  ck_call call = {"standard", path, 1, -1, build_signed, &request};
  ck_perform(client, &call, result);
  ck_buf_free(&form);
  top_level_into_data(result);
  return ck_bind_card(result, machine_id, card_key);
}

/* ---- Connect ---- */

typedef struct connect_request {
  const char *card_key;
  const char *serial;
  const char *nonce; /* NULL: fresh per attempt; "": none */
} connect_request;

static int build_connect(const ck_client *client, void *context, ck_attempt *attempt) {
  (void)client;
  const connect_request *request = context;
  if (request->nonce == NULL) ck_new_nonce(attempt->nonce);
  else if (!ck_copy_text(attempt->nonce, sizeof attempt->nonce, request->nonce)) return 0;
  return ck_buf_append_form(&attempt->body, "user_key", request->card_key) &&
         ck_buf_append_form(&attempt->body, "serial", request->serial) &&
         (attempt->nonce[0] == '\0' || ck_buf_append_form(&attempt->body, "nonce", attempt->nonce)) &&
         standard_headers(attempt, FORM);
}

int ck_connect_login(ck_client *client, const char *card_key, const char *serial, const char *nonce, ck_result *result) {
  if (result == NULL) return 0;
  if (client == NULL) return argument_error(result, "client");
  if (!ck_text_ok(card_key, CK_MAX_INPUT_BYTES)) return argument_error(result, "card_key");
  if (!ck_text_ok(serial, CK_MAX_INPUT_BYTES)) return argument_error(result, "serial");
  if (nonce != NULL && strlen(nonce) > 96) return argument_error(result, "nonce");
  char path[64];
  char encoded_program[48];
  ck_buf program;
  ck_buf_init(&program, sizeof encoded_program - 1);
  ck_buf_append_form(&program, "p", client->program_id);
  const char *text = ck_buf_cstr(&program);
  int fits = text != NULL && ck_copy_text(encoded_program, sizeof encoded_program, text + 2);
  ck_buf_free(&program);
  if (!fits) return argument_error(result, "program_id");
  snprintf(path, sizeof path, "/connect/%s", encoded_program);
  connect_request request = {card_key, serial, nonce};
  /* A nonce of the caller's is sent once: a repeat within 60 s is NONCE_REPLAYED. */
  ck_call call = {"connect", path, nonce == NULL || nonce[0] == '\0' ? 1 : 0, -1, build_connect, &request};
  ck_perform(client, &call, result);
  /* Connect's success names the device (machine_code) but not the card. */
  return ck_bind_card(result, serial, NULL);
}

/* ---- Legacy V1 ---- */

typedef struct legacy_request {
  const char *api; /* the aggregate action */
  const char *card_key;
  const char *machine_id;
} legacy_request;

static int build_legacy(const ck_client *client, void *context, ck_attempt *attempt) {
  const legacy_request *request = context;
  char timestamp[24], nonce[25], sign[33];
  snprintf(timestamp, sizeof timestamp, "%lld", ck_now());
  ck_new_nonce(nonce);
  int sealed = client->transport_mode != NULL;
  ck_form_field fields[] = {{"api", request->api},   {"app", client->program_id}, {"kami", request->card_key},
                            {"imei", request->machine_id}, {"nonce", nonce}, {"t", timestamp}};
  size_t first = sealed ? 0 : 1; /* `api` exists only on the aggregate entry */
  size_t count = sizeof fields / sizeof fields[0] - first;
  if (!ck_md5_sign(fields + first, count, client->legacy_secret, sign, sizeof sign)) return 0;
  ck_buf form;
  ck_buf_init(&form, CK_MAX_REQUEST_BYTES);
  for (size_t i = first; i < first + count; i++) ck_buf_append_form(&form, fields[i].name, fields[i].value);
  ck_buf_append_form(&form, "sign", sign);
  int ok = ck_buf_cstr(&form) != NULL && standard_headers(attempt, FORM);
  if (ok && !sealed) {
    ok = ck_buf_append(&attempt->body, form.data, form.len);
    ck_copy_text(attempt->nonce, sizeof attempt->nonce, nonce);
  } else if (ok) {
    size_t data_cap = sodium_base64_ENCODED_LEN(form.len + 48, sodium_base64_VARIANT_ORIGINAL);
    char *data = malloc(data_cap);
    ok = data != NULL && ck_transport_seal(client->transport_mode, client->transport_key, form.data, form.len, NULL, data, data_cap) &&
         ck_buf_append_form(&attempt->body, "app", client->program_id) && ck_buf_append_form(&attempt->body, "data", data);
    free(data);
    /* The service signs before it opens `data`: REQUEST_NONCE is empty; the nonce inside still binds
       the answer through REQUEST_DIGEST. */
    attempt->nonce[0] = '\0';
  }
  ck_buf_free(&form);
  return ok;
}

/* A sealed success `data` is opened; one that does not open is UNEXPECTED_RESPONSE, never a success. */
static void open_data(ck_client *client, ck_result *result) {
  cJSON *root = ck_result_tree(result);
  cJSON *sealed = root ? cJSON_GetObjectItemCaseSensitive(root, "data") : NULL;
  if (client->transport_mode == NULL || !result->success || !cJSON_IsString(sealed)) return;
  size_t cap = strlen(sealed->valuestring) + 1, len = 0;
  unsigned char *plain = malloc(cap);
  cJSON *data = NULL;
  if (plain != NULL && ck_transport_open(client->transport_mode, client->transport_key, sealed->valuestring, plain, cap, &len))
    data = cJSON_ParseWithLength((const char *)plain, len);
  free(plain);
  if (!cJSON_IsObject(data)) {
    cJSON_Delete(data);
    int status = result->http_status;
    ck_result_free(result);
    ck_fail(result, CK_UNEXPECTED_RESPONSE, status, "The answer's data does not open with the transport key (wrong transport_mode or transport_key?)");
    return;
  }
  cJSON_ReplaceItemInObjectCaseSensitive(root, "data", data);
  ck_read_features(data, &result->features_present, &result->feature_count, result->features);
  result->trial = ck_read_trial(data);
}

static int legacy_call(ck_client *client, const char *path, const char *api, const char *card_key, const char *machine_id,
                       int idempotent, ck_result *result) {
  if (result == NULL) return 0;
  if (client == NULL) return argument_error(result, "client");
  if (client->legacy_secret == NULL) return argument_error(result, "legacy_secret (the legacy calls need it)");
  if (!ck_text_ok(card_key, CK_MAX_INPUT_BYTES)) return argument_error(result, "card_key");
  if (!ck_text_ok(machine_id, CK_MAX_INPUT_BYTES)) return argument_error(result, "machine_id");
  legacy_request request = {api, card_key, machine_id};
  ck_call call = {"legacy", client->transport_mode ? "/api/app" : path, idempotent, -1, build_legacy, &request};
  ck_perform(client, &call, result);
  open_data(client, result);
  return ck_bind_card(result, machine_id, card_key);
}

int ck_legacy_card_login(ck_client *client, const char *card_key, const char *machine_id, ck_result *result) {
  return legacy_call(client, "/api/card_login", "card_login", card_key, machine_id, 1, result);
}

int ck_legacy_unbind(ck_client *client, const char *card_key, const char *machine_id, ck_result *result) {
  /* Never retried: each unbind may deduct time. */
  return legacy_call(client, "/api/unbind_machine", "card_unbind", card_key, machine_id, 0, result);
}

/* ---- offline licence ---- */

int ck_check_licence(const ck_client *client, const char *licence, const char *card_key, const char *machine_id,
                     long long now, ck_licence_check *out) {
  if (out == NULL) return 0;
  if (client == NULL || !client->pinned || client->key_count == 0) {
    memset(out, 0, sizeof *out);
    ck_copy_text(out->reason, sizeof out->reason, "checking a licence needs the pinned response keys");
    return 0;
  }
  ck_pinned_key keys[CK_MAX_PINNED_KEYS];
  for (size_t i = 0; i < client->key_count; i++) keys[i] = (ck_pinned_key){client->kids[i], client->public_keys[i]};
  return ck_verify_licence(licence, keys, client->key_count, client->program_id, machine_id, card_key, now, out);
}
