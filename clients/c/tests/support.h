/* Test support: checks that count instead of aborting, the shared vectors, and a scripted fake
 * service behind the client's HTTP seam (it can sign its answers with the RFC 8032 test key). */
#ifndef CK_TEST_SUPPORT_H
#define CK_TEST_SUPPORT_H

#include <pthread.h>
#include <stddef.h>

#include <cjson/cJSON.h>

#include "cardkey/cardkey.h"
#include "cardkey/cardkey_helpers.h"

#define CHECK(cond) check_that((cond) ? 1 : 0, __FILE__, __LINE__, #cond)
#define CHECK_STR(actual, expected) check_str((actual), (expected), __FILE__, __LINE__, #actual)
#define CHECK_INT(actual, expected) check_int((long long)(actual), (long long)(expected), __FILE__, __LINE__, #actual)

int check_that(int ok, const char *file, int line, const char *what);
int check_str(const char *actual, const char *expected, const char *file, int line, const char *what);
int check_int(long long actual, long long expected, const char *file, int line, const char *what);
/* Prints "<name>: N passed, M failed" and answers the exit code. */
int test_finish(const char *name);
int test_failures(void);

cJSON *load_vectors(const char *path);
const char *json_text(const cJSON *object, const char *name);

/* The RFC 8032 test key (sdk/vectors: ed25519). */
#define TEST_KID "21fe31dfa154a261"
#define TEST_PUBLIC_KEY "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"
extern const ck_pinned_key TEST_KEYS[1];

enum fake_signing { FAKE_UNSIGNED = 0, FAKE_SIGNED, FAKE_SIGNED_V1, FAKE_SIGNED_OTHER_REQUEST, FAKE_SIGNED_STALE };

typedef struct fake_answer {
  int network_failure;
  int status;
  const char *content_type; /* NULL: application/json */
  const char *body;
  int signing;
  const char *retry_after;
  const char *seal_mode; /* seal `data` (the JSON after "data":) with this transport mode and key */
  const char *seal_key;
} fake_answer;

#define FAKE_MAX 32
typedef struct fake_service {
  pthread_mutex_t lock;
  fake_answer answers[FAKE_MAX];
  size_t answer_count;
  size_t calls;
  char paths[FAKE_MAX][128];
  char nonces[FAKE_MAX][128];       /* X-Svc-Nonce header, else "" */
  char bodies[FAKE_MAX][4096];      /* the request body as sent */
  char headers[FAKE_MAX][8][320];
} fake_service;

void fake_init(fake_service *fake);
void fake_destroy(fake_service *fake);
/* Appends an answer to the script; the last one repeats once the script is used up. */
void fake_add(fake_service *fake, fake_answer answer);
/* Replaces the whole script by one answer (thread-safe, for the heartbeat loop). */
void fake_set(fake_service *fake, fake_answer answer);
size_t fake_calls(fake_service *fake);
const char *fake_header(fake_service *fake, size_t call, const char *name); /* value or NULL */
int fake_exchange(void *user, const ck_http_request *request, ck_http_answer *answer);

/* A client of program 48213907 (secrets of the vectors) on the fake; keys may be NULL. */
ck_client *fake_client(fake_service *fake, const ck_pinned_key *keys, size_t key_count, const char *transport_mode);

#endif
