/* The heartbeat loop: one thread per client that beats the held session until it ends.
 *
 * Beats never overlap (one thread). The loop stops for good when the session ends
 * (SESSION_INVALID, SESSION_TYPE_MISMATCH: on_session_ended, once, whoever met it first), when the
 * client clears its session, or on ck_heartbeat_stop. No lock is held while a beat is on the wire
 * or a callback runs, so a callback may call the client (but must not free it). */
#include <errno.h>
#include <string.h>
#include <time.h>

#include "internal.h"

#define DEFAULT_INTERVAL_MS 60000L

static struct timespec deadline_in(long ms) {
  struct timespec at;
  clock_gettime(CK_WAIT_CLOCK, &at);
  at.tv_sec += ms / 1000;
  at.tv_nsec += (ms % 1000) * 1000000L;
  if (at.tv_nsec >= 1000000000L) {
    at.tv_sec++;
    at.tv_nsec -= 1000000000L;
  }
  return at;
}

static void report(ck_heartbeat_callback callback, const ck_result *result, void *user) {
  if (callback != NULL) callback(result, user);
}

static void *run(void *argument) {
  ck_client *client = argument;
  pthread_mutex_lock(&client->lock);
  for (;;) {
    struct timespec at = deadline_in(client->loop.interval_ms);
    while (!client->loop.stopped && pthread_cond_timedwait(&client->changed, &client->lock, &at) != ETIMEDOUT) {
    }
    if (client->loop.stopped || !client->has_session) break;
    ck_session_type type = client->session.type;
    ck_heartbeat_options options = client->loop.options;
    pthread_mutex_unlock(&client->lock);

    ck_result result;
    int success = type == CK_SESSION_CARD ? ck_card_heartbeat(client, &result) : ck_user_heartbeat(client, &result);
    int ended = !success && (result.code == CK_SESSION_INVALID || result.code == CK_SESSION_TYPE_MISMATCH);
    pthread_mutex_lock(&client->lock);
    int report_it = !client->loop.stopped && !ended; /* an end was reported by the heartbeat itself */
    pthread_mutex_unlock(&client->lock);
    if (report_it) report(success ? options.on_beat : options.on_error, &result, options.user);
    ck_result_free(&result);
    pthread_mutex_lock(&client->lock);
  }
  client->loop.stopped = 1;
  pthread_cond_broadcast(&client->changed);
  pthread_mutex_unlock(&client->lock);
  return NULL;
}

void ck_loop_session_ended(ck_client *client, unsigned long generation, const ck_result *result) {
  (void)generation;
  pthread_mutex_lock(&client->lock);
  int report_it = client->loop.joinable && !client->loop.stopped;
  client->loop.stopped = 1;
  client->loop.reporting += report_it;
  ck_heartbeat_options options = client->loop.options;
  pthread_cond_broadcast(&client->changed);
  pthread_mutex_unlock(&client->lock);
  if (!report_it) return;
  report(options.on_session_ended, result, options.user);
  /* Only now may ck_heartbeat_wait return: the owner has heard why the session ended. */
  pthread_mutex_lock(&client->lock);
  client->loop.reporting--;
  pthread_cond_broadcast(&client->changed);
  pthread_mutex_unlock(&client->lock);
}

void ck_loop_stop_locked(ck_client *client, pthread_t *to_join, int *must_join) {
  client->loop.stopped = 1;
  pthread_cond_broadcast(&client->changed);
  *must_join = 0;
  if (client->loop.joinable && !pthread_equal(client->loop.thread, pthread_self())) {
    *to_join = client->loop.thread;
    *must_join = 1;
    client->loop.joinable = 0;
  }
}

void ck_loop_join(pthread_t thread, int must_join) {
  if (must_join) pthread_join(thread, NULL);
}

int ck_heartbeat_start(ck_client *client, const ck_heartbeat_options *options) {
  if (client == NULL || (options != NULL && options->interval_ms < 0)) return 0;
  ck_heartbeat_stop(client);
  pthread_mutex_lock(&client->lock);
  if (!client->has_session || client->loop.joinable) { /* joinable: stopped from its own callback, still running */
    pthread_mutex_unlock(&client->lock);
    return 0;
  }
  memset(&client->loop.options, 0, sizeof client->loop.options);
  if (options != NULL) client->loop.options = *options;
  long interval = options != NULL ? options->interval_ms : 0;
  if (interval == 0)
    interval = client->session.heartbeat_interval_seconds > 0 ? client->session.heartbeat_interval_seconds * 1000L : DEFAULT_INTERVAL_MS;
  client->loop.interval_ms = interval;
  client->loop.stopped = 0;
  int started = pthread_create(&client->loop.thread, NULL, run, client) == 0;
  client->loop.joinable = started;
  if (!started) client->loop.stopped = 1;
  pthread_mutex_unlock(&client->lock);
  return started;
}

void ck_heartbeat_stop(ck_client *client) {
  if (client == NULL) return;
  pthread_t thread;
  int must_join = 0;
  pthread_mutex_lock(&client->lock);
  ck_loop_stop_locked(client, &thread, &must_join);
  pthread_mutex_unlock(&client->lock);
  ck_loop_join(thread, must_join);
}

int ck_heartbeat_wait(ck_client *client, long timeout_ms) {
  if (client == NULL) return 1;
  struct timespec at = deadline_in(timeout_ms > 0 ? timeout_ms : 0);
  pthread_mutex_lock(&client->lock);
  while (!(client->loop.stopped && client->loop.reporting == 0) &&
         pthread_cond_timedwait(&client->changed, &client->lock, &at) != ETIMEDOUT) {
  }
  int stopped = client->loop.stopped && client->loop.reporting == 0;
  pthread_mutex_unlock(&client->lock);
  return stopped;
}

int ck_heartbeat_running(ck_client *client) {
  if (client == NULL) return 0;
  pthread_mutex_lock(&client->lock);
  int running = !client->loop.stopped;
  pthread_mutex_unlock(&client->lock);
  return running;
}
