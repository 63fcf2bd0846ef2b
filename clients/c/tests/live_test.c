/* Live tests: every client call against a real service (run by test/e2e/clients/c-client.e2e-spec.ts, under
 * the sanitizer build). The Jest spec boots the service, arranges a program, its cards, versions,
 * a program user and a relay, and runs this program with the environment below:
 *
 *   BASE_URL PROGRAM_ID API_SECRET LEGACY_SECRET PROJECT_ID ADMIN_TOKEN USER_NAME USER_PASSWORD
 *   CARD_SDK CARD_LOOP CARD_V3 CARD_CONNECT CARD_LEGACY CARD_PINNED CARD_TOPUP CARD_TOPUP_KEY
 *   CARD_RELAY_GENUINE RESPONSE_KEYS='{"kid":"base64url"}' SEALED_PROGRAMS='[{"mode",...}]'
 *   RELAY_URL RELAY_TYPED_KEY RELAY_MACHINE
 *
 * The program must have the versions 1.0.0 and 1.2.0 (forced), Connect open, unbinding on and
 * offline_grace_seconds > 0; every card unused. The last line says "live: N passed, M failed";
 * the exit status is 0 only when every test passed. Without BASE_URL it exits 77 (skipped). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <curl/curl.h>

#include "support.h"

#define MAX_KEYS 8

static int tests_run, tests_failed;
static ck_pinned_key pinned[MAX_KEYS];
static size_t pinned_count;
static cJSON *keys_json, *sealed_json;

static const char *env(const char *name) {
  const char *value = getenv(name);
  if (value == NULL || value[0] == '\0') {
    fprintf(stderr, "missing environment variable %s\n", name);
    exit(2);
  }
  return value;
}

typedef struct options {
  const char *base_url, *program_id, *api_secret, *legacy_secret, *transport_mode, *transport_key;
  int pin;
  const ck_pinned_key *keys;
  size_t key_count;
} options;

static options defaults(void) {
  options o = {env("BASE_URL"), env("PROGRAM_ID"), env("API_SECRET"), env("LEGACY_SECRET"), NULL, NULL, 0, NULL, 0};
  return o;
}

static ck_client *client_with(options o) {
  ck_config config;
  ck_config_init(&config);
  config.base_url = o.base_url;
  config.program_id = o.program_id;
  config.api_secret = o.api_secret;
  config.legacy_secret = o.legacy_secret;
  config.retry_delay_ms = 10;
  config.transport_mode = o.transport_mode;
  config.transport_key = o.transport_key;
  if (o.pin) {
    config.response_keys = o.keys ? o.keys : pinned;
    config.response_key_count = o.keys ? o.key_count : pinned_count;
  }
  char error[200];
  ck_client *client = ck_client_new(&config, error, sizeof error);
  if (client == NULL) {
    fprintf(stderr, "client refused: %s\n", error);
    exit(2);
  }
  return client;
}

static ck_client *plain_client(void) { return client_with(defaults()); }

static void show(const char *what, const ck_result *r) {
  if (!r->success) fprintf(stderr, "  %s: code %ld (%s) HTTP %d: %s\n", what, r->code, ck_code_name(r->code), r->http_status, r->message);
}

/* Forced offline by the project owner, through the admin API. */
static int revoke_card_sessions(long long card_id) {
  char url[512], body[64], auth[256];
  snprintf(url, sizeof url, "%s/admin/v1/projects/%s/sessions/revoke", env("BASE_URL"), env("PROJECT_ID"));
  snprintf(body, sizeof body, "{\"card_id\":%lld}", card_id);
  snprintf(auth, sizeof auth, "Authorization: Bearer %s", env("ADMIN_TOKEN"));
  CURL *curl = curl_easy_init();
  struct curl_slist *headers = curl_slist_append(NULL, "Content-Type: application/json");
  headers = curl_slist_append(headers, auth);
  FILE *sink = fopen("/dev/null", "w");
  curl_easy_setopt(curl, CURLOPT_URL, url);
  curl_easy_setopt(curl, CURLOPT_POSTFIELDS, body);
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, sink);
  curl_easy_setopt(curl, CURLOPT_TIMEOUT, 10L);
  long status = 0;
  if (curl_easy_perform(curl) == CURLE_OK) curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
  fclose(sink);
  curl_slist_free_all(headers);
  curl_easy_cleanup(curl);
  return status == 200;
}

static void sdk_login_session_and_heartbeat(void) {
  ck_client *c = plain_client();
  ck_result r;
  CHECK(ck_card_login(c, env("CARD_SDK"), "c-sdk-pc", &r));
  show("login", &r);
  CHECK_INT(r.code, 0);
  CHECK_INT(r.http_status, 200);
  CHECK_INT(strlen(r.request_id), 32);
  char text[128];
  CHECK(ck_result_text(&r, "data.machine_code", text, sizeof text) && strcmp(text, "c-sdk-pc") == 0);
  CHECK(ck_result_text(&r, "data.statecode", text, sizeof text) && strcmp(text, "active") == 0);
  CHECK(ck_result_text(&r, "data.token", text, sizeof text) && strlen(text) == 43);
  long long card_id = 0, interval = 0;
  CHECK(ck_result_int(&r, "data.id", &card_id));
  CHECK(ck_result_int(&r, "data.heartbeat_interval_seconds", &interval) && interval == 60);
  /* features: exposed when the service sends them (card types, decisions §19). */
  CHECK(!r.features_present || r.feature_count <= CK_MAX_FEATURES);
  ck_session session;
  CHECK(ck_session_get(c, &session));
  CHECK_INT(session.type, CK_SESSION_CARD);
  CHECK_INT(strlen(session.token), 43);
  CHECK_INT(session.owner_id, card_id);
  ck_result_free(&r);

  CHECK(ck_card_heartbeat(c, &r));
  show("heartbeat", &r);
  long long beat_card = 0, server_time = 0;
  CHECK(ck_result_int(&r, "data.card_id", &beat_card) && beat_card == card_id);
  CHECK(ck_result_int(&r, "data.server_time", &server_time) && server_time > 0);
  ck_result_free(&r);
  CHECK(!ck_user_heartbeat(c, &r));
  CHECK_INT(r.code, CK_NO_SESSION);

  CHECK(ck_card_info(c, env("CARD_SDK"), &r));
  show("info", &r);
  CHECK(ck_result_text(&r, "data.devices.0.machine_code", text, sizeof text) && strcmp(text, "c-sdk-pc") == 0);
  ck_result_free(&r);
  ck_client_free(c);
}

typedef struct loop_counts {
  pthread_mutex_t lock;
  int beats, errors, ended;
  long ended_code;
  char ended_by[CK_SHORT_MAX];
} loop_counts;

static void on_beat(const ck_result *r, void *user) {
  loop_counts *n = user;
  pthread_mutex_lock(&n->lock);
  n->beats += r->success;
  pthread_mutex_unlock(&n->lock);
}
static void on_error(const ck_result *r, void *user) {
  loop_counts *n = user;
  show("loop error", r);
  pthread_mutex_lock(&n->lock);
  n->errors++;
  pthread_mutex_unlock(&n->lock);
}
static void on_ended(const ck_result *r, void *user) {
  loop_counts *n = user;
  pthread_mutex_lock(&n->lock);
  n->ended++;
  n->ended_code = r->code;
  snprintf(n->ended_by, sizeof n->ended_by, "%s", r->ended_by);
  pthread_mutex_unlock(&n->lock);
}

static void heartbeat_loop_ends_when_the_owner_revokes_the_session(void) {
  ck_client *c = plain_client();
  ck_result r;
  CHECK(ck_card_login(c, env("CARD_LOOP"), "c-loop-pc", &r));
  long long card_id = 0;
  ck_result_int(&r, "data.id", &card_id);
  ck_result_free(&r);
  loop_counts n = {PTHREAD_MUTEX_INITIALIZER, 0, 0, 0, 0, ""};
  ck_heartbeat_options o = {50, on_beat, on_error, on_ended, &n};
  CHECK(ck_heartbeat_start(c, &o));
  for (int i = 0; i < 200; i++) {
    pthread_mutex_lock(&n.lock);
    int beats = n.beats;
    pthread_mutex_unlock(&n.lock);
    if (beats >= 2) break;
    struct timespec pause = {0, 50 * 1000000L};
    nanosleep(&pause, NULL);
  }
  pthread_mutex_lock(&n.lock);
  CHECK(n.beats >= 2);
  pthread_mutex_unlock(&n.lock);
  CHECK(revoke_card_sessions(card_id));
  CHECK(ck_heartbeat_wait(c, 10000));
  pthread_mutex_lock(&n.lock);
  CHECK_INT(n.ended, 1);
  CHECK_INT(n.ended_code, CK_SESSION_INVALID);
  CHECK_INT(n.errors, 0);
  /* decisions §18: exposed when the service says it; then it must be the owner's doing. */
  CHECK(n.ended_by[0] == '\0' || strcmp(n.ended_by, "forced_offline") == 0);
  pthread_mutex_unlock(&n.lock);
  ck_session session;
  CHECK(!ck_session_get(c, &session));
  ck_client_free(c);
}

static void v3_connect_and_legacy_logins(void) {
  ck_client *c = plain_client();
  ck_result r;
  char text[128];
  CHECK(ck_v3_card_login(c, env("CARD_V3"), "c-v3-pc", &r));
  show("v3", &r);
  CHECK(ck_result_text(&r, "data.token", text, sizeof text) && strlen(text) == 43);
  CHECK(!ck_result_text(&r, "data.session_token", text, sizeof text));
  ck_session session;
  CHECK(!ck_session_get(c, &session)); /* V3 opens no session */
  ck_result_free(&r);

  CHECK(ck_connect_login(c, env("CARD_CONNECT"), "c-connect-pc", NULL, &r));
  show("connect", &r);
  CHECK_INT(r.code, 1);
  ck_result_free(&r);
  char nonce[40];
  snprintf(nonce, sizeof nonce, "c-%ld-%d", (long)time(NULL), rand());
  CHECK(ck_connect_login(c, env("CARD_CONNECT"), "c-connect-pc", nonce, &r));
  ck_result_free(&r);
  CHECK(!ck_connect_login(c, env("CARD_CONNECT"), "c-connect-pc", nonce, &r));
  CHECK_INT(r.code, CK_NONCE_REPLAYED);
  CHECK_INT(r.http_status, 409);
  ck_result_free(&r);

  CHECK(ck_legacy_card_login(c, env("CARD_LEGACY"), "c-legacy-pc", &r));
  show("legacy", &r);
  CHECK_INT(r.code, 1);
  ck_result_free(&r);
  CHECK(ck_legacy_unbind(c, env("CARD_LEGACY"), "c-legacy-pc", &r));
  show("legacy unbind", &r);
  long long count = 0;
  CHECK(ck_result_int(&r, "data.unbind_count", &count) && count == 1);
  ck_result_free(&r);
  CHECK(!ck_legacy_unbind(c, env("CARD_LEGACY"), "c-legacy-pc", &r));
  CHECK_INT(r.code, CK_UNBIND_REFUSED);
  ck_result_free(&r);
  ck_client_free(c);

  options wrong = defaults();
  wrong.legacy_secret = "not-the-secret";
  c = client_with(wrong);
  CHECK(!ck_legacy_card_login(c, env("CARD_LEGACY"), "c-legacy-pc", &r));
  CHECK_INT(r.code, CK_SIGNATURE_INVALID);
  ck_result_free(&r);
  ck_client_free(c);
}

static void legacy_through_each_transport_encryption(void) {
  int modes = 0;
  const cJSON *program = NULL;
  cJSON_ArrayForEach(program, sealed_json) {
    options o = defaults();
    o.program_id = json_text(program, "program_id");
    o.api_secret = json_text(program, "api_secret");
    o.legacy_secret = json_text(program, "legacy_secret");
    o.transport_mode = json_text(program, "mode");
    o.transport_key = json_text(program, "transport_key");
    ck_client *c = client_with(o);
    ck_result r;
    if (!CHECK(ck_legacy_card_login(c, json_text(program, "card"), "c-sealed-pc", &r))) show(o.transport_mode, &r);
    char machine[64];
    CHECK(ck_result_text(&r, "data.machine_code", machine, sizeof machine) && strcmp(machine, "c-sealed-pc") == 0);
    ck_result_free(&r);
    CHECK(ck_legacy_unbind(c, json_text(program, "card"), "c-sealed-pc", &r));
    ck_result_free(&r);
    ck_client_free(c);
    modes++;
  }
  CHECK_INT(modes, 3);
}

static void refusals_keep_their_codes(void) {
  ck_client *c = plain_client();
  ck_result r;
  CHECK(!ck_card_login(c, "NO-SUCH-CARD-KEY", "c-sdk-pc", &r));
  CHECK_INT(r.code, CK_CARD_INVALID);
  CHECK_INT(r.http_status, 200);
  CHECK(r.message[0] != '\0');
  ck_result_free(&r);
  CHECK(!ck_v3_card_login(c, "NO-SUCH-CARD-KEY", "m", &r));
  CHECK_INT(r.code, CK_CARD_INVALID);
  ck_result_free(&r);
  CHECK(!ck_legacy_card_login(c, "NO-SUCH-CARD-KEY", "m", &r));
  CHECK_INT(r.code, CK_CARD_INVALID);
  ck_result_free(&r);
  CHECK(!ck_connect_login(c, "NO-SUCH-CARD-KEY", "m", NULL, &r));
  CHECK_INT(r.code, CK_CARD_INVALID); /* Connect's -20001 comes back positive */
  ck_result_free(&r);
  ck_client_free(c);

  options wrong = defaults();
  wrong.api_secret = "not-the-secret";
  c = client_with(wrong);
  CHECK(!ck_card_login(c, env("CARD_SDK"), "m", &r));
  CHECK_INT(r.code, CK_SIGNATURE_INVALID);
  CHECK_INT(r.http_status, 401);
  ck_result_free(&r);
  ck_client_free(c);
  wrong = defaults();
  wrong.program_id = "00000001";
  c = client_with(wrong);
  CHECK(!ck_card_login(c, env("CARD_SDK"), "m", &r));
  CHECK_INT(r.code, CK_PROGRAM_NOT_FOUND);
  CHECK_INT(r.http_status, 404);
  ck_result_free(&r);
  ck_client_free(c);
}

static void user_register_login_and_heartbeat(void) {
  ck_client *c = plain_client();
  ck_result r;
  char fresh[40], text[64];
  snprintf(fresh, sizeof fresh, "c.%ld%d", (long)time(NULL) % 100000, rand() % 100000);
  CHECK(ck_user_register(c, fresh, "pass-word-1", "c-user-pc", &r));
  show("register", &r);
  CHECK(ck_result_text(&r, "data.username", text, sizeof text) && strcmp(text, fresh) == 0);
  ck_result_free(&r);
  CHECK(!ck_user_register(c, env("USER_NAME"), "pass-word-1", "c-user-pc", &r));
  CHECK_INT(r.code, CK_USERNAME_TAKEN);
  ck_result_free(&r);
  CHECK(!ck_user_login(c, env("USER_NAME"), "wrong-password", "c-user-pc", &r));
  CHECK_INT(r.code, CK_BAD_CREDENTIALS);
  ck_result_free(&r);
  ck_session session;
  CHECK(!ck_session_get(c, &session));
  CHECK(ck_user_login(c, env("USER_NAME"), env("USER_PASSWORD"), "c-user-pc", &r));
  show("user login", &r);
  long long user_id = 0;
  CHECK(ck_result_int(&r, "data.profile.user_id", &user_id));
  ck_result_free(&r);
  CHECK(ck_session_get(c, &session) && session.type == CK_SESSION_USER && session.owner_id == user_id);
  CHECK_STR(session.machine_id, "c-user-pc");
  CHECK(ck_user_heartbeat(c, &r));
  show("user heartbeat", &r);
  ck_result_free(&r);
  CHECK(!ck_card_heartbeat(c, &r));
  CHECK_INT(r.code, CK_NO_SESSION);
  ck_client_free(c);
}

static void version_check(void) {
  ck_client *c = plain_client();
  ck_result r;
  char latest[32];
  int update = 0, force = 0;
  CHECK(ck_check_version(c, "1.1.0", &r));
  CHECK(ck_result_text(&r, "data.latest_version", latest, sizeof latest) && strcmp(latest, "1.2.0") == 0);
  CHECK(ck_result_bool(&r, "data.update_available", &update) && update);
  CHECK(ck_result_bool(&r, "data.force_update", &force) && force);
  ck_result_free(&r);
  CHECK(!ck_check_version(c, "not a version", &r));
  CHECK_INT(r.code, CK_BAD_REQUEST);
  CHECK_INT(r.http_status, 400);
  ck_result_free(&r);
  ck_client_free(c);
}

static void topup_info_and_self_service_unbind(void) {
  ck_client *c = plain_client();
  ck_result r;
  const char *card = env("CARD_TOPUP");
  CHECK(ck_card_login(c, card, "c-topup-pc", &r));
  ck_result_free(&r);
  CHECK(ck_card_topup(c, card, env("CARD_TOPUP_KEY"), &r));
  show("topup", &r);
  CHECK_INT(r.code, 0);
  ck_result_free(&r);
  CHECK(!ck_card_topup(c, card, env("CARD_TOPUP_KEY"), &r)); /* consumed: refused, nothing changed */
  CHECK(r.code == CK_TOPUP_REFUSED || r.code == CK_CARD_INVALID);
  ck_result_free(&r);
  CHECK(ck_card_unbind(c, card, "c-topup-pc", &r));
  show("unbind", &r);
  CHECK_INT(r.code, 1); /* the standard family's unbind answers code 1 */
  ck_result_free(&r);
  CHECK(!ck_card_unbind(c, card, "c-topup-pc", &r));
  CHECK_INT(r.code, CK_UNBIND_REFUSED);
  ck_result_free(&r);
  ck_client_free(c);
}

static void trial_card_bound_to_this_device(void) {
  options o = defaults();
  o.pin = 1;
  ck_client *c = client_with(o);
  char machine[64], code[64], again[64];
  snprintf(machine, sizeof machine, "c-trial-%d", rand());
  ck_result r;
  CHECK(ck_card_trial(c, machine, &r));
  show("trial", &r);
  CHECK(r.trial && r.features_present && r.feature_count == 1 && strcmp(r.features[0], "trial") == 0);
  CHECK(ck_result_text(&r, "data.code", code, sizeof code));
  ck_result_free(&r);
  CHECK(ck_card_trial(c, machine, &r)); /* a repeat answers the same card */
  CHECK(ck_result_text(&r, "data.code", again, sizeof again) && strcmp(code, again) == 0);
  ck_result_free(&r);
  CHECK(ck_card_login(c, code, machine, &r));
  show("trial login", &r);
  CHECK(r.trial);
  ck_result_free(&r);
  CHECK(ck_card_heartbeat(c, &r));
  CHECK(r.trial);
  ck_result_free(&r);
  ck_client_free(c);
}

static void pinned_keys_every_family_and_an_offline_licence(void) {
  options o = defaults();
  o.pin = 1;
  ck_client *c = client_with(o);
  const char *card = env("CARD_PINNED");
  ck_result r;
  CHECK(ck_card_login(c, card, "c-pinned-pc", &r));
  show("pinned login", &r);
  ck_result_free(&r);
  CHECK(ck_card_heartbeat(c, &r));
  ck_result_free(&r);
  CHECK(ck_v3_card_login(c, card, "c-pinned-pc", &r));
  ck_result_free(&r);
  CHECK(ck_connect_login(c, card, "c-pinned-pc", NULL, &r));
  ck_result_free(&r);
  CHECK(ck_legacy_card_login(c, card, "c-pinned-pc", &r));
  ck_result_free(&r);
  CHECK(ck_check_version(c, "1.0.0", &r));
  ck_result_free(&r);
  CHECK(!ck_card_login(c, card, "c-second-pc", &r));
  CHECK_INT(r.code, CK_DEVICE_LIMIT_REACHED); /* a signed refusal is believed as a refusal */
  ck_result_free(&r);

  CHECK(ck_card_checkout(c, card, "c-pinned-pc", 600, &r));
  show("checkout", &r);
  char licence[4096];
  CHECK(ck_result_text(&r, "data.licence", licence, sizeof licence));
  ck_result_free(&r);
  ck_licence_check check;
  CHECK(ck_check_licence(c, licence, card, "c-pinned-pc", 0, &check));
  if (!check.valid) fprintf(stderr, "  licence: %s\n", check.reason);
  CHECK_STR(check.program_id, env("PROGRAM_ID"));
  CHECK(!ck_check_licence(c, licence, card, "another-pc", 0, &check));
  CHECK_STR(check.reason, "for another machine");
  ck_client_free(c);

  /* The RFC 8032 test key: a valid key, but not this program's. Its answers are not believed. */
  o.keys = TEST_KEYS;
  o.key_count = 1;
  c = client_with(o);
  CHECK(!ck_card_login(c, card, "c-pinned-pc", &r));
  CHECK_INT(r.code, CK_UNTRUSTED_RESPONSE);
  ck_client_free(c);
}

static void a_relay_swapping_the_card_is_refused(void) {
  const char *typed = env("RELAY_TYPED_KEY"), *machine = env("RELAY_MACHINE");
  options o = defaults();
  o.pin = 1;
  o.base_url = env("RELAY_URL");
  ck_client *relayed = client_with(o);
  ck_result r[5];
  ck_connect_login(relayed, typed, machine, NULL, &r[0]);
  ck_legacy_card_login(relayed, typed, machine, &r[1]);
  ck_v3_card_login(relayed, typed, machine, &r[2]);
  ck_card_login(relayed, typed, machine, &r[3]);
  options direct_options = defaults();
  direct_options.pin = 1;
  ck_client *direct = client_with(direct_options);
  ck_result login;
  CHECK(ck_card_login(direct, env("CARD_RELAY_GENUINE"), machine, &login));
  ck_result_free(&login);
  ck_session session;
  CHECK(ck_session_get(direct, &session) && ck_session_restore(relayed, &session));
  ck_card_heartbeat(relayed, &r[4]);
  for (int i = 0; i < 5; i++) {
    CHECK(!r[i].success);
    CHECK_INT(r[i].code, CK_UNTRUSTED_RESPONSE);
    /* The logins' signatures cover what the service received; the heartbeat's token is outside it, its card is not. */
    CHECK_STR(r[i].message, i < 4 ? "Untrusted answer: the answer signature does not verify"
                                  : "Untrusted answer: it is for another card than the one sent");
    ck_result_free(&r[i]);
  }
  ck_session after;
  CHECK(ck_session_get(relayed, &after) && strcmp(after.token, session.token) == 0); /* neither renewed nor ended */
  ck_client_free(relayed);
  ck_client_free(direct);
}

static void run(const char *name, void (*test)(void)) {
  int before = test_failures();
  test();
  int failed = test_failures() > before;
  tests_run++;
  tests_failed += failed;
  printf("%s - %s\n", failed ? "not ok" : "ok", name);
  fflush(stdout);
}

int main(void) {
  if (getenv("BASE_URL") == NULL || getenv("BASE_URL")[0] == '\0') {
    printf("live: skipped (BASE_URL is not set: no service to test against)\n");
    return 77;
  }
  srand((unsigned)time(NULL));
  curl_global_init(CURL_GLOBAL_DEFAULT);
  keys_json = cJSON_Parse(env("RESPONSE_KEYS"));
  sealed_json = cJSON_Parse(env("SEALED_PROGRAMS"));
  const cJSON *key = NULL;
  cJSON_ArrayForEach(key, keys_json) {
    if (pinned_count < MAX_KEYS && cJSON_IsString(key)) pinned[pinned_count++] = (ck_pinned_key){key->string, key->valuestring};
  }
  if (pinned_count == 0 || !cJSON_IsArray(sealed_json)) {
    fprintf(stderr, "RESPONSE_KEYS or SEALED_PROGRAMS is not what the live tests need\n");
    return 2;
  }
  run("sdk_login_session_and_heartbeat", sdk_login_session_and_heartbeat);
  run("heartbeat_loop_ends_when_the_owner_revokes_the_session", heartbeat_loop_ends_when_the_owner_revokes_the_session);
  run("v3_connect_and_legacy_logins", v3_connect_and_legacy_logins);
  run("legacy_through_each_transport_encryption", legacy_through_each_transport_encryption);
  run("refusals_keep_their_codes", refusals_keep_their_codes);
  run("user_register_login_and_heartbeat", user_register_login_and_heartbeat);
  run("version_check", version_check);
  run("topup_info_and_self_service_unbind", topup_info_and_self_service_unbind);
  run("trial_card_bound_to_this_device", trial_card_bound_to_this_device);
  run("pinned_keys_every_family_and_an_offline_licence", pinned_keys_every_family_and_an_offline_licence);
  run("a_relay_swapping_the_card_is_refused", a_relay_swapping_the_card_is_refused);
  cJSON_Delete(keys_json);
  cJSON_Delete(sealed_json);
  curl_global_cleanup();
  printf("checks: %d failed\n", test_failures());
  printf("live: %d passed, %d failed\n", tests_run - tests_failed, tests_failed);
  return tests_failed == 0 && tests_run > 0 ? 0 : 1;
}
