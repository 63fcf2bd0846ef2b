/* Signed answers (§6.2, signature v2) against the shared vectors: every genuine answer verifies,
 * any change to what it binds does not, and the retired v1 is refused. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"

typedef struct answer_case {
  const char *method, *path, *nonce, *request, *timestamp, *body, *signature, *version;
  int status;
  long long now;
} answer_case;

static const char *distrust(const answer_case *c) {
  return ck_answer_distrust(c->method, c->path, c->nonce, (const unsigned char *)c->request, strlen(c->request), c->status,
                            (const unsigned char *)c->body, strlen(c->body), c->timestamp, TEST_KID, c->signature,
                            c->version, TEST_KEYS, 1, 300, c->now);
}

static answer_case case_of(const cJSON *vector) {
  answer_case c;
  c.method = json_text(vector, "method");
  c.path = json_text(vector, "path");
  c.nonce = json_text(vector, "nonce");
  c.request = json_text(vector, "request");
  c.timestamp = json_text(vector, "timestamp");
  c.body = json_text(vector, "body");
  c.signature = json_text(vector, "signature");
  c.version = "2";
  c.status = cJSON_GetObjectItemCaseSensitive(vector, "status")->valueint;
  c.now = atoll(c.timestamp);
  return c;
}

static void genuine_answers_verify_and_changes_do_not(const cJSON *vectors) {
  const cJSON *ed25519 = cJSON_GetObjectItemCaseSensitive(vectors, "ed25519");
  CHECK_STR(json_text(ed25519, "kid"), TEST_KID);
  CHECK_STR(json_text(ed25519, "public_key"), TEST_PUBLIC_KEY);
  const cJSON *vector = NULL;
  int seen = 0;
  cJSON_ArrayForEach(vector, cJSON_GetObjectItemCaseSensitive(ed25519, "responses")) {
    answer_case c = case_of(vector);
    if (!CHECK(distrust(&c) == NULL)) fprintf(stderr, "  vector: %s\n", json_text(vector, "name"));

    char body[4096], request[4096];
    snprintf(body, sizeof body, "%s", c.body);
    body[strlen(body) - 2] ^= 1; /* one byte of the answer */
    answer_case changed = c;
    changed.body = body;
    CHECK_STR(distrust(&changed), "the answer signature does not verify");

    snprintf(request, sizeof request, "%s ", c.request); /* what a relay sent instead */
    changed = c;
    changed.request = request;
    CHECK_STR(distrust(&changed), "the answer signature does not verify");

    changed = c;
    changed.status = c.status == 200 ? 401 : 200;
    CHECK_STR(distrust(&changed), "the answer signature does not verify");
    changed = c;
    changed.nonce = "another-nonce";
    CHECK_STR(distrust(&changed), "the answer signature does not verify");
    changed = c;
    changed.path = "/api/v1/cards/info";
    CHECK_STR(distrust(&changed), "the answer signature does not verify");
    changed = c;
    changed.now = c.now + 301;
    CHECK_STR(distrust(&changed), "the answer signature is outside the time window");
    changed = c;
    changed.version = NULL;
    CHECK_STR(distrust(&changed), "the answer is not signed in version 2");
    changed = c;
    changed.signature = NULL;
    CHECK_STR(distrust(&changed), "the answer is not signed");
    seen++;
  }
  CHECK_INT(seen, 5);
}

static void unknown_keys_and_v1_are_refused(const cJSON *vectors) {
  const cJSON *ed25519 = cJSON_GetObjectItemCaseSensitive(vectors, "ed25519");
  const cJSON *first = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(ed25519, "responses"), 0);
  answer_case c = case_of(first);
  ck_pinned_key other = {"0123456789abcdef", TEST_PUBLIC_KEY};
  CHECK_STR(ck_answer_distrust(c.method, c.path, c.nonce, (const unsigned char *)c.request, strlen(c.request), c.status,
                               (const unsigned char *)c.body, strlen(c.body), c.timestamp, TEST_KID, c.signature, "2",
                               &other, 1, 300, c.now),
            "the answer is signed with an unknown key");
  CHECK_STR(ck_answer_distrust(c.method, c.path, c.nonce, (const unsigned char *)c.request, strlen(c.request), c.status,
                               (const unsigned char *)c.body, strlen(c.body), c.timestamp, TEST_KID, c.signature, "2",
                               NULL, 0, 300, c.now),
            "the answer is signed with an unknown key");

  const cJSON *vector = NULL;
  int seen = 0;
  cJSON_ArrayForEach(vector, cJSON_GetObjectItemCaseSensitive(ed25519, "responses_v1")) {
    answer_case v1 = case_of(vector);
    v1.request = "";
    v1.version = "1";
    CHECK_STR(distrust(&v1), "the answer is not signed in version 2");
    v1.version = "2"; /* a v1 signature claiming v2 does not verify either */
    CHECK_STR(distrust(&v1), "the answer signature does not verify");
    seen++;
  }
  CHECK_INT(seen, 4);
}

int main(int argc, char **argv) {
  cJSON *vectors = load_vectors(argc > 1 ? argv[1] : NULL);
  genuine_answers_verify_and_changes_do_not(vectors);
  unknown_keys_and_v1_are_refused(vectors);
  cJSON_Delete(vectors);
  return test_finish("test_answers");
}
