/* The heartbeat loop: beats on its thread, reports errors and goes on, ends once on SESSION_INVALID
 * (with ended_by), stops on demand, and a heartbeat naming another card is not believed. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "support.h"

#define LOGIN_OK                                                                                               \
  "{\"code\":0,\"success\":true,\"msg\":\"ok\",\"data\":{\"id\":7,\"code\":\"CK-1\",\"machine_code\":\"PC-001\"," \
  "\"session_token\":\"sess\",\"session_expires_at\":\"2026-01-01 00:10:00\",\"heartbeat_interval_seconds\":60}}"
#define BEAT_OK "{\"code\":0,\"success\":true,\"msg\":\"ok\",\"data\":{\"card_id\":7,\"session_expires_at\":\"2026-01-01 00:20:00\"}}"
#define BEAT_OTHER_CARD "{\"code\":0,\"success\":true,\"msg\":\"ok\",\"data\":{\"card_id\":8,\"session_expires_at\":\"x\"}}"
#define ENDED                                                                                                      \
  "{\"code\":30101,\"success\":false,\"msg\":\"The session is invalid\",\"data\":{\"ended_by\":\"forced_offline\"," \
  "\"ended_at\":\"2026-01-01 00:05:00\"}}"

typedef struct counts {
  pthread_mutex_t lock;
  int beats, errors, ended;
  char ended_by[CK_SHORT_MAX];
} counts;

static void on_beat(const ck_result *result, void *user) {
  counts *c = user;
  pthread_mutex_lock(&c->lock);
  c->beats += result->success;
  pthread_mutex_unlock(&c->lock);
}

static void on_error(const ck_result *result, void *user) {
  counts *c = user;
  (void)result;
  pthread_mutex_lock(&c->lock);
  c->errors++;
  pthread_mutex_unlock(&c->lock);
}

static void on_ended(const ck_result *result, void *user) {
  counts *c = user;
  struct timespec slow = {0, 50 * 1000000L}; /* a slow owner: ck_heartbeat_wait must wait for it */
  nanosleep(&slow, NULL);
  pthread_mutex_lock(&c->lock);
  c->ended++;
  snprintf(c->ended_by, sizeof c->ended_by, "%s", result->ended_by);
  pthread_mutex_unlock(&c->lock);
}

static int read_count(counts *c, const int *field) {
  pthread_mutex_lock(&c->lock);
  int value = *field;
  pthread_mutex_unlock(&c->lock);
  return value;
}

static void wait_for(counts *c, const int *field, int at_least) {
  for (int i = 0; i < 400 && read_count(c, field) < at_least; i++) {
    struct timespec pause = {0, 10 * 1000000L};
    nanosleep(&pause, NULL);
  }
}

static ck_client *logged_in(fake_service *fake) {
  fake_init(fake);
  fake_set(fake, (fake_answer){.body = LOGIN_OK, .signing = FAKE_SIGNED});
  ck_client *client = fake_client(fake, TEST_KEYS, 1, NULL);
  ck_result result;
  CHECK(ck_card_login(client, "CK-1", "PC-001", &result));
  ck_result_free(&result);
  return client;
}

static void the_loop_beats_reports_errors_and_ends_once(void) {
  fake_service fake;
  ck_client *client = logged_in(&fake);
  counts c = {PTHREAD_MUTEX_INITIALIZER, 0, 0, 0, ""};
  ck_heartbeat_options options = {20, on_beat, on_error, on_ended, &c};
  fake_set(&fake, (fake_answer){.body = BEAT_OK, .signing = FAKE_SIGNED});
  CHECK(ck_heartbeat_start(client, &options));
  wait_for(&c, &c.beats, 2);
  CHECK(read_count(&c, &c.beats) >= 2);
  CHECK(strcmp(fake.headers[0][2], "Authorization: Bearer sess") == 0);
  ck_session session;
  ck_session_get(client, &session);
  CHECK_STR(session.expires_at, "2026-01-01 00:20:00"); /* renewed */

  fake_set(&fake, (fake_answer){.network_failure = 1});
  wait_for(&c, &c.errors, 1);
  CHECK(read_count(&c, &c.errors) >= 1);
  CHECK(ck_heartbeat_running(client)); /* a network failure does not end the session */

  fake_set(&fake, (fake_answer){.body = ENDED, .status = 401, .signing = FAKE_SIGNED});
  CHECK(ck_heartbeat_wait(client, 5000));
  CHECK_INT(read_count(&c, &c.ended), 1);
  CHECK_STR(c.ended_by, "forced_offline");
  CHECK(!ck_session_get(client, &session));
  int beats = read_count(&c, &c.beats);
  struct timespec pause = {0, 100 * 1000000L};
  nanosleep(&pause, NULL);
  CHECK_INT(read_count(&c, &c.beats), beats); /* nothing after the end */
  CHECK_INT(read_count(&c, &c.ended), 1);
  ck_client_free(client);
  fake_destroy(&fake);
}

static void stop_and_a_heartbeat_for_another_card(void) {
  fake_service fake;
  ck_client *client = logged_in(&fake);
  counts c = {PTHREAD_MUTEX_INITIALIZER, 0, 0, 0, ""};
  ck_heartbeat_options options = {20, on_beat, on_error, on_ended, &c};
  fake_set(&fake, (fake_answer){.body = BEAT_OK, .signing = FAKE_SIGNED});
  CHECK(ck_heartbeat_start(client, &options));
  wait_for(&c, &c.beats, 1);
  ck_heartbeat_stop(client);
  CHECK(!ck_heartbeat_running(client));
  CHECK(ck_heartbeat_wait(client, 0));
  ck_session session;
  CHECK(ck_session_get(client, &session)); /* stopping the loop keeps the session */

  fake_set(&fake, (fake_answer){.body = BEAT_OTHER_CARD, .signing = FAKE_SIGNED});
  ck_result result;
  CHECK(!ck_card_heartbeat(client, &result));
  CHECK_INT(result.code, CK_UNTRUSTED_RESPONSE);
  CHECK(ck_session_get(client, &session)); /* an untrusted beat neither renews nor ends it */
  CHECK_STR(session.expires_at, "2026-01-01 00:20:00");
  ck_result_free(&result);
  CHECK(!ck_user_heartbeat(client, &result));
  CHECK_INT(result.code, CK_NO_SESSION);

  ck_session_clear(client);
  CHECK(!ck_heartbeat_start(client, &options)); /* no session, no loop */
  ck_client_free(client);
  fake_destroy(&fake);
}

int main(void) {
  the_loop_beats_reports_errors_and_ends_once();
  stop_and_a_heartbeat_for_another_card();
  return test_finish("test_heartbeat");
}
