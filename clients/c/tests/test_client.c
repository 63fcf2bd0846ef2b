/* The client's calls against a scripted fake service: what is sent, what is retried, and that
 * nothing untrusted is ever reported as a success. */
#include <stdio.h>
#include <string.h>

#include "support.h"

#define SDK_LOGIN_OK                                                                                                      \
  "{\"code\":0,\"success\":true,\"msg\":\"Login successful\",\"token\":\"t0k\",\"statecode\":\"active\",\"data\":{\"id\":7,"  \
  "\"code\":\"CK-1\",\"machine_code\":\"PC-001\",\"session_token\":\"sess-token\",\"session_expires_at\":\"2026-01-01 00:10:00\"," \
  "\"heartbeat_interval_seconds\":30,\"features\":[\"pro\"]},\"request_id\":\"r1\"}"
#define CARD_INVALID "{\"code\":20001,\"success\":false,\"msg\":\"The card key is invalid\",\"request_id\":\"r2\"}"

static fake_answer answer(const char *body, int signing) {
  fake_answer a = {0};
  a.body = body;
  a.signing = signing;
  return a;
}

static fake_answer network_failure(void) {
  fake_answer a = {0};
  a.network_failure = 1;
  return a;
}

static void sdk_login_signs_holds_a_session_and_exposes_features(void) {
  fake_service fake;
  fake_init(&fake);
  fake_add(&fake, answer(SDK_LOGIN_OK, FAKE_SIGNED));
  ck_client *client = fake_client(&fake, TEST_KEYS, 1, NULL);
  ck_result result;
  CHECK(ck_card_login(client, "CK-1", "PC-001", &result));
  CHECK_INT(result.code, 0);
  CHECK(result.features_present && result.feature_count == 1);
  char text[64];
  CHECK(ck_result_text(&result, "data.token", text, sizeof text) && strcmp(text, "t0k") == 0); /* top level, in data too */
  CHECK_STR(fake.paths[0], "/api/v1/cards/login");
  CHECK_STR(fake.bodies[0], "{\"app\":\"48213907\",\"card_key\":\"CK-1\",\"machine_id\":\"PC-001\"}");
  char expected[65];
  ck_hmac_signature("sk_test_4f3c2a1b9e8d7c6b", "POST", "/api/v1/cards/login", fake_header(&fake, 0, "X-Svc-Timestamp"),
                    fake_header(&fake, 0, "X-Svc-Nonce"), (const unsigned char *)fake.bodies[0], strlen(fake.bodies[0]),
                    expected, sizeof expected);
  CHECK_STR(fake_header(&fake, 0, "X-Svc-Signature"), expected);
  ck_session session;
  CHECK(ck_session_get(client, &session));
  CHECK_INT(session.type, CK_SESSION_CARD);
  CHECK_STR(session.token, "sess-token");
  CHECK_STR(session.machine_id, "PC-001");
  CHECK_INT(session.heartbeat_interval_seconds, 30);
  CHECK_INT(session.owner_id, 7);
  ck_result_free(&result);
  ck_client_free(client);
  fake_destroy(&fake);
}

#define TRIAL_OK                                                                                               \
  "{\"code\":0,\"success\":true,\"msg\":\"Trial card issued\",\"data\":{\"code\":\"TRIAL-1\",\"expires_at\":"         \
  "\"2030-01-01 00:00:00\",\"machine_code\":\"PC-001\",\"trial\":true,\"features\":[\"basic\"]},\"request_id\":\"r1\"}"

static void card_trial_sends_the_machine_and_must_name_it(void) {
  fake_service fake;
  fake_init(&fake);
  fake_add(&fake, answer(TRIAL_OK, FAKE_SIGNED));
  fake_add(&fake, answer("{\"code\":20011,\"success\":false,\"msg\":\"used\",\"request_id\":\"r2\"}", FAKE_SIGNED));
  ck_client *client = fake_client(&fake, TEST_KEYS, 1, NULL);
  ck_result result;
  CHECK(ck_card_trial(client, "PC-001", &result));
  CHECK(result.trial && result.features_present && result.feature_count == 1);
  char code[32];
  CHECK(ck_result_text(&result, "data.code", code, sizeof code) && strcmp(code, "TRIAL-1") == 0);
  CHECK_STR(fake.paths[0], "/api/v1/cards/trial");
  CHECK_STR(fake.bodies[0], "{\"app\":\"48213907\",\"machine_id\":\"PC-001\"}");
  ck_result_free(&result);
  CHECK(!ck_card_trial(client, "PC-001", &result));
  CHECK_INT(result.code, CK_TRIAL_USED);
  ck_result_free(&result);
  /* The same genuine answer for a client that sent another device: never a success. */
  fake_add(&fake, answer(TRIAL_OK, FAKE_SIGNED));
  CHECK(!ck_card_trial(client, "PC-002", &result));
  CHECK_INT(result.code, CK_UNTRUSTED_RESPONSE);
  ck_result_free(&result);
  ck_client_free(client);
  fake_destroy(&fake);
}

static void untrusted_answers_are_never_a_success(void) {
  const struct {
    const char *body;
    int signing;
    const char *message;
  } cases[] = {
      {SDK_LOGIN_OK, FAKE_UNSIGNED, "Untrusted answer: the answer is not signed"},
      {SDK_LOGIN_OK, FAKE_SIGNED_V1, "Untrusted answer: the answer is not signed in version 2"},
      {SDK_LOGIN_OK, FAKE_SIGNED_OTHER_REQUEST, "Untrusted answer: the answer signature does not verify"},
      {SDK_LOGIN_OK, FAKE_SIGNED_STALE, "Untrusted answer: the answer signature is outside the time window"},
      /* A relay that swapped the device or the card: a genuine, signed success for what it sent. */
      {"{\"code\":0,\"success\":true,\"data\":{\"id\":7,\"code\":\"CK-1\",\"machine_code\":\"RELAY-PC\"}}", FAKE_SIGNED,
       "Untrusted answer: it is for another device than the one sent"},
      {"{\"code\":0,\"success\":true,\"data\":{\"id\":7,\"code\":\"CK-RELAY\",\"machine_code\":\"PC-001\"}}", FAKE_SIGNED,
       "Untrusted answer: it is for another card than the one sent"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    fake_service fake;
    fake_init(&fake);
    fake_add(&fake, answer(cases[i].body, cases[i].signing));
    ck_client *client = fake_client(&fake, TEST_KEYS, 1, NULL);
    ck_result result;
    CHECK(!ck_card_login(client, "CK-1", "PC-001", &result));
    CHECK_INT(result.code, CK_UNTRUSTED_RESPONSE);
    CHECK_STR(result.message, cases[i].message);
    ck_session session;
    CHECK(!ck_session_get(client, &session)); /* nothing held from an untrusted answer */
    CHECK_INT(fake_calls(&fake), 1);           /* and never retried */
    ck_result_free(&result);
    ck_client_free(client);
    fake_destroy(&fake);
  }
  /* Without pinned keys the device and card are still checked. */
  fake_service fake;
  fake_init(&fake);
  fake_add(&fake, answer(cases[4].body, FAKE_UNSIGNED));
  ck_client *client = fake_client(&fake, NULL, 0, NULL);
  ck_result result;
  CHECK(!ck_v3_card_login(client, "CK-1", "PC-001", &result));
  CHECK_INT(result.code, CK_UNTRUSTED_RESPONSE);
  ck_result_free(&result);
  ck_client_free(client);
  fake_destroy(&fake);
}

static void retries_only_what_is_safe_to_repeat(void) {
  fake_service fake;
  fake_init(&fake);
  fake_add(&fake, network_failure());
  fake_answer gateway = {0};
  gateway.status = 503;
  gateway.content_type = "text/html";
  gateway.body = "<html>busy</html>";
  fake_add(&fake, gateway);
  fake_add(&fake, answer(SDK_LOGIN_OK, FAKE_UNSIGNED));
  ck_client *client = fake_client(&fake, NULL, 0, NULL);
  ck_result result;
  CHECK(ck_card_login(client, "CK-1", "PC-001", &result));
  CHECK_INT(fake_calls(&fake), 3);
  CHECK(strcmp(fake.nonces[0], fake.nonces[1]) != 0 && strcmp(fake.nonces[1], fake.nonces[2]) != 0); /* signed afresh */
  ck_result_free(&result);

  fake_set(&fake, network_failure());
  CHECK(!ck_card_login(client, "CK-1", "PC-001", &result));
  CHECK_INT(result.code, CK_NETWORK_ERROR);
  CHECK_INT(result.http_status, 0);
  CHECK_INT(fake_calls(&fake), 3); /* 1 + retries (2) */
  ck_result_free(&result);

  CHECK(!ck_user_register(client, "li.wei", "pass-word", "PC-001", &result));
  CHECK_INT(fake_calls(&fake), 4); /* registration is never repeated */
  CHECK(!ck_card_topup(client, "CK-1", "CK-2", &result));
  CHECK(!ck_card_unbind(client, "CK-1", "PC-001", &result));
  CHECK(!ck_legacy_unbind(client, "CK-1", "PC-001", &result));
  CHECK(!ck_connect_login(client, "CK-1", "PC-001", "my-own-nonce", &result));
  CHECK_INT(fake_calls(&fake), 8);

  fake_set(&fake, answer(CARD_INVALID, FAKE_UNSIGNED));
  CHECK(!ck_card_login(client, "CK-1", "PC-001", &result));
  CHECK_INT(result.code, CK_CARD_INVALID);
  CHECK_STR(result.message, "The card key is invalid");
  CHECK_INT(fake_calls(&fake), 1); /* a business refusal is final */
  ck_result_free(&result);

  fake_answer limited = answer("{\"code\":10302,\"success\":false,\"msg\":\"Too many\"}", FAKE_UNSIGNED);
  limited.status = 429;
  limited.retry_after = "30";
  fake_set(&fake, limited);
  CHECK(!ck_card_login(client, "CK-1", "PC-001", &result));
  CHECK_INT(result.code, CK_RATE_LIMITED);
  CHECK_INT(result.retry_after_seconds, 30);
  CHECK_INT(fake_calls(&fake), 1);
  ck_result_free(&result);
  ck_client_free(client);
  fake_destroy(&fake);
}

static void each_family_sends_its_request(void) {
  fake_service fake;
  fake_init(&fake);
  ck_client *client = fake_client(&fake, TEST_KEYS, 1, NULL);
  ck_result result;

  fake_set(&fake, answer("{\"status\":true,\"code\":1,\"reason\":\"ok\",\"data\":{\"token\":\"x\",\"machine_code\":\"PC 1\"}}", FAKE_SIGNED));
  CHECK(ck_connect_login(client, "CK 1", "PC 1", NULL, &result));
  CHECK_STR(fake.paths[0], "/connect/48213907");
  CHECK(strncmp(fake.bodies[0], "user_key=CK%201&serial=PC%201&nonce=", 36) == 0);
  ck_result_free(&result);
  fake_set(&fake, answer("{\"status\":true,\"code\":1,\"reason\":\"ok\",\"data\":{\"token\":\"x\",\"machine_code\":\"PC 1\"}}", FAKE_UNSIGNED));
  CHECK(!ck_connect_login(client, "CK 1", "PC 1", "", &result)); /* no nonce; and unsigned is refused */
  CHECK_STR(fake.bodies[0], "user_key=CK%201&serial=PC%201");
  ck_result_free(&result);

  fake_set(&fake, answer("{\"code\":1,\"msg\":\"ok\",\"data\":{\"code\":\"CK-1\",\"machine_code\":\"PC-001\"}}", FAKE_SIGNED));
  CHECK(ck_legacy_card_login(client, "CK-1", "PC-001", &result));
  CHECK_STR(fake.paths[0], "/api/card_login");
  CHECK(strstr(fake.bodies[0], "app=48213907&kami=CK-1&imei=PC-001&nonce=") == fake.bodies[0]);
  CHECK(strstr(fake.bodies[0], "&sign=") != NULL);
  ck_result_free(&result);

  fake_set(&fake, answer("{\"code\":1,\"success\":true,\"msg\":\"Unbound\",\"data\":{\"code\":\"CK-1\",\"machine_code\":\"PC-001\",\"unbind_count\":1}}", FAKE_SIGNED));
  CHECK(ck_card_unbind(client, "CK-1", "PC-001", &result));
  CHECK_INT(result.code, 1);
  ck_result_free(&result);
  fake_set(&fake, answer("{\"code\":0,\"success\":true,\"msg\":\"Unbound\",\"data\":{\"code\":\"CK-1\",\"machine_code\":\"PC-001\"}}", FAKE_SIGNED));
  CHECK(!ck_card_unbind(client, "CK-1", "PC-001", &result)); /* code 0 is no unbind success */
  CHECK_INT(result.code, CK_UNEXPECTED_RESPONSE);
  ck_result_free(&result);

  fake_set(&fake, answer("{\"code\":0,\"success\":true,\"data\":{\"licence\":\"a.b\",\"kid\":\"k\"}}", FAKE_SIGNED));
  CHECK(ck_card_checkout(client, "CK-1", "PC-001", 600, &result));
  CHECK_STR(fake.bodies[0], "{\"app\":\"48213907\",\"card_key\":\"CK-1\",\"machine_id\":\"PC-001\",\"ttl_seconds\":600}");
  ck_result_free(&result);
  ck_client_free(client);
  fake_destroy(&fake);
}

static void legacy_transport_seals_both_ways(void) {
  const char *modes[] = {"rc4", "aes", "aes-gcm"};
  for (size_t i = 0; i < 3; i++) {
    fake_service fake;
    fake_init(&fake);
    fake_answer sealed = answer("{\"code\":1,\"msg\":\"ok\",\"data\":{\"code\":\"CK-1\",\"machine_code\":\"PC-001\",\"features\":[\"pro\"]}}", FAKE_SIGNED);
    sealed.seal_mode = modes[i];
    sealed.seal_key = "9f2c4e6a8b0d1f3e5a7c9e1b3d5f7a9c";
    fake_set(&fake, sealed);
    ck_client *client = fake_client(&fake, TEST_KEYS, 1, modes[i]);
    ck_result result;
    CHECK(ck_legacy_card_login(client, "CK-1", "PC-001", &result));
    CHECK_STR(fake.paths[0], "/api/app");
    CHECK(strncmp(fake.bodies[0], "app=48213907&data=", 18) == 0);
    CHECK(strstr(fake.bodies[0], "kami") == NULL); /* nothing in clear but app */
    char machine[32];
    CHECK(ck_result_text(&result, "data.machine_code", machine, sizeof machine));
    CHECK(result.features_present && result.feature_count == 1);
    ck_result_free(&result);

    sealed.seal_key = "not-the-key";
    fake_set(&fake, sealed);
    CHECK(!ck_legacy_card_login(client, "CK-1", "PC-001", &result));
    CHECK_INT(result.code, CK_UNEXPECTED_RESPONSE);
    ck_result_free(&result);
    ck_client_free(client);
    fake_destroy(&fake);
  }
}

static void misuse_sends_nothing(void) {
  fake_service fake;
  fake_init(&fake);
  fake_set(&fake, answer(SDK_LOGIN_OK, FAKE_UNSIGNED));
  ck_client *client = fake_client(&fake, NULL, 0, NULL);
  ck_result result;
  char long_key[600];
  memset(long_key, 'K', sizeof long_key - 1);
  long_key[sizeof long_key - 1] = '\0';
  CHECK(!ck_card_login(client, long_key, "PC-001", &result));
  CHECK_INT(result.code, CK_INVALID_ARGUMENT);
  CHECK(!ck_card_login(client, "", "PC-001", &result));
  CHECK(!ck_card_login(client, NULL, "PC-001", &result));
  CHECK(!ck_card_heartbeat(client, &result));
  CHECK_INT(result.code, CK_NO_SESSION);
  CHECK_INT(fake_calls(&fake), 0);
  ck_licence_check check;
  CHECK(!ck_check_licence(client, "a.b", "CK-1", "PC-001", 0, &check));
  ck_client_free(client);

  ck_config config;
  ck_config_init(&config);
  char error[128];
  config.base_url = "ftp://example.com";
  config.program_id = "48213907";
  config.api_secret = "s";
  CHECK(ck_client_new(&config, error, sizeof error) == NULL);
  CHECK_STR(error, "base_url must be an http or https address");
  config.base_url = "https://example.com";
  ck_pinned_key bad = {"kid", "not-a-key"};
  config.response_keys = &bad;
  config.response_key_count = 1;
  CHECK(ck_client_new(&config, error, sizeof error) == NULL);
  fake_destroy(&fake);
}

static void connect_field_names_are_read_back(void) {
  fake_service fake;
  fake_init(&fake);
  fake_set(&fake, answer("{\"ok\":true,\"code\":1,\"why\":\"fine\",\"data\":{\"licence\":\"tok\",\"machine_code\":\"PC-001\"}}", FAKE_UNSIGNED));
  ck_config config;
  ck_config_init(&config);
  ck_field_name names[] = {{"status", "ok"}, {"reason", "why"}, {"token", "licence"}};
  config.base_url = "https://licence.example.com";
  config.program_id = "48213907";
  config.api_secret = "s";
  config.connect_field_names = names;
  config.connect_field_name_count = 3;
  config.exchange = fake_exchange;
  config.exchange_user = &fake;
  ck_client *client = ck_client_new(&config, NULL, 0);
  ck_result result;
  CHECK(ck_connect_login(client, "CK-1", "PC-001", NULL, &result));
  CHECK_STR(result.message, "fine");
  char token[16];
  CHECK(ck_result_text(&result, "data.token", token, sizeof token) && strcmp(token, "tok") == 0);
  ck_result_free(&result);
  ck_client_free(client);
  fake_destroy(&fake);
}

int main(void) {
  sdk_login_signs_holds_a_session_and_exposes_features();
  card_trial_sends_the_machine_and_must_name_it();
  untrusted_answers_are_never_a_success();
  retries_only_what_is_safe_to_repeat();
  each_family_sends_its_request();
  legacy_transport_seals_both_ways();
  misuse_sends_nothing();
  connect_field_names_are_read_back();
  return test_finish("test_client");
}
