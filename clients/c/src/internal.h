/* Internal declarations shared by the client's source files (not installed). */
#ifndef CK_INTERNAL_H
#define CK_INTERNAL_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "cardkey/cardkey.h"
#include "cardkey/cardkey_helpers.h"

/* Answers are small; 1 MiB is the service's own body limit and far above any answer. */
#define CK_MAX_ANSWER_BYTES (1024u * 1024u)
/* Requests this client builds are a few fields; 64 KiB leaves room for every bounded argument. */
#define CK_MAX_REQUEST_BYTES (64u * 1024u)
#define CK_MAX_INPUT_BYTES 512 /* a card key, device code, password: 128 characters of UTF-8 */
#define CK_MAX_HEADERS 8
#define CK_HEADER_MAX 320
#define CK_NONCE_MAX 100
#define CK_MAX_PINNED_KEYS 16
#define CK_MAX_FIELD_NAMES 16

/* A growable byte buffer that never grows past `limit`; `failed` sticks after the first refusal. */
typedef struct ck_buf {
  unsigned char *data;
  size_t len;
  size_t cap;
  size_t limit;
  int failed;
} ck_buf;

void ck_buf_init(ck_buf *buf, size_t limit);
int ck_buf_append(ck_buf *buf, const void *bytes, size_t len);
int ck_buf_append_str(ck_buf *buf, const char *text);
/* The content as a NUL-terminated string (the NUL is not counted in len); NULL when failed. */
const char *ck_buf_cstr(ck_buf *buf);
void ck_buf_free(ck_buf *buf); /* wipes: bodies may hold passwords and secrets */
/* Appends `name=value` form-encoded (percent-encoding all but A-Z a-z 0-9 - . _ ~), `&` first unless empty. */
int ck_buf_append_form(ck_buf *buf, const char *name, const char *value);

/* Copies src into dst (size bytes); 1 when it fit whole, 0 when cut (dst is still terminated). */
int ck_copy_text(char *dst, size_t size, const char *src);
/* Non-NULL, non-empty, at most max bytes. */
int ck_text_ok(const char *text, size_t max);
void ck_new_nonce(char out[25]); /* 24 hex characters */
long long ck_now(void);
void ck_sleep_ms(long ms);
void ck_sha256_hex(const unsigned char *bytes, size_t len, char out[65]);

/* The clock of the client's condition variable and its deadlines. Monotonic where pthreads can
   wait on it; MinGW's winpthreads refuses CLOCK_MONOTONIC in pthread_condattr_setclock and times
   its waits on the real-time clock, so Windows (like macOS, which has no setclock) waits on that. */
#if defined(_WIN32) || defined(__APPLE__)
#define CK_WAIT_CLOCK CLOCK_REALTIME
#else
#define CK_WAIT_CLOCK CLOCK_MONOTONIC
#endif

/* The answer of one attempt: status, body and the headers the client reads. */
struct ck_http_answer {
  int status;
  ck_buf body;
  int too_large;
  char content_type[128];
  char request_id[CK_ID_MAX];
  char retry_after[32];
  char sig_timestamp[32];
  char sig_key[64];
  char sig_signature[160];
  char sig_version[16];
  int has_sig_timestamp, has_sig_key, has_sig_signature, has_sig_version;
};
void ck_answer_init(ck_http_answer *answer);
void ck_answer_reset(ck_http_answer *answer); /* a new header block (after 100 Continue) */
void ck_answer_free(ck_http_answer *answer);

/* One attempt of a call, built afresh (signed anew) for each attempt. */
typedef struct ck_attempt {
  char headers[CK_MAX_HEADERS][CK_HEADER_MAX];
  size_t header_count;
  ck_buf body;
  char nonce[CK_NONCE_MAX]; /* REQUEST_NONCE of this attempt ("" when none) */
} ck_attempt;
int ck_attempt_header(ck_attempt *attempt, const char *name, const char *value);

typedef int (*ck_build_fn)(const ck_client *client, void *context, ck_attempt *attempt);

typedef struct ck_call {
  const char *family; /* "connect", "standard", "legacy" */
  const char *path;
  int idempotent;
  int success_code; /* -1, or the route's own 0/1 */
  ck_build_fn build;
  void *context;
} ck_call;

struct ck_loop_state {
  pthread_t thread;
  int joinable;  /* a thread exists that nobody has joined yet */
  int stopped;   /* the loop must not beat or report any more */
  int reporting; /* on_session_ended is running: waiters wait for it */
  long interval_ms;
  ck_heartbeat_options options;
};

struct ck_client {
  char *base_url;
  char *program_id;
  char *api_secret;
  char *legacy_secret;
  char *transport_mode; /* NULL: none */
  char *transport_key;
  long timeout_ms, connect_timeout_ms, retry_delay_ms, max_skew_seconds;
  int retries;
  int pinned; /* keys were given: every answer must verify */
  size_t key_count;
  char *kids[CK_MAX_PINNED_KEYS];
  char *public_keys[CK_MAX_PINNED_KEYS];
  size_t field_name_count;
  char *field_standard[CK_MAX_FIELD_NAMES];
  char *field_custom[CK_MAX_FIELD_NAMES];
  ck_exchange_fn exchange;
  void *exchange_user;
  pthread_mutex_t lock; /* guards session, session_generation and loop */
  pthread_cond_t changed;
  int has_session;
  unsigned long session_generation;
  ck_session session;
  struct ck_loop_state loop;
};

/* Sends the call (retries included), checks the signature with pinned keys, judges the family's rule. */
int ck_perform(ck_client *client, const ck_call *call, ck_result *result);
/* Fills a failure the client produced itself. */
int ck_fail(ck_result *result, long code, int http_status, const char *message);
void ck_result_clear(ck_result *result);
/* Judges a received answer (Connect renames applied when given). */
int ck_judge_answer(const char *family, const ck_http_answer *answer, const ck_client *client, int success_code,
                    ck_result *result);
/* The result's parsed tree (a cJSON *), NULL when none. */
void *ck_result_tree(const ck_result *result);
/* Reads `features` from a data object into the fixed fields. */
void ck_read_features(const void *data_json, int *present, size_t *count, char features[][CK_FEATURE_MAX]);
/* 1 when the data object says `trial: true` (decisions §21). */
int ck_read_trial(const void *data_json);

/* A success naming another device or card than sent is no answer to this request (decisions §17). */
int ck_bind_card(ck_result *result, const char *machine_id, const char *card_key);
int ck_bind_owner(ck_result *result, const char *field, long long owner_id, const char *what);

/* Transport encryption, internal sizes. */
int ck_transport_mode_ok(const char *mode);
unsigned char *ck_base64url_decode(const char *text, size_t *len); /* malloc'd; NULL when invalid */
int ck_public_key_bytes(const char *public_key, unsigned char out[32]);

/* libcurl for one attempt. */
int ck_curl_exchange(const ck_http_request *request, long connect_timeout_ms, ck_http_answer *answer);

/* Heartbeat bookkeeping (heartbeat.c) used by the session code (client.c). */
void ck_loop_stop_locked(ck_client *client, pthread_t *to_join, int *must_join);
void ck_loop_join(pthread_t thread, int must_join);

#endif
