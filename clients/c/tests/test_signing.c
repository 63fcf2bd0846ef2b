/* Request signing against the shared vectors: HMAC-SHA256 (§3) and the legacy MD5 (§5.3). */
#include <string.h>

#include "support.h"

static void hmac_vectors(const cJSON *vectors) {
  const cJSON *vector = NULL;
  int seen = 0;
  cJSON_ArrayForEach(vector, cJSON_GetObjectItemCaseSensitive(vectors, "hmac")) {
    const char *body = json_text(vector, "body");
    char signature[65];
    CHECK(ck_hmac_signature(json_text(vector, "secret"), json_text(vector, "method"), json_text(vector, "path"),
                            json_text(vector, "timestamp"), json_text(vector, "nonce"), (const unsigned char *)body,
                            strlen(body), signature, sizeof signature));
    CHECK_STR(signature, json_text(vector, "signature"));
    seen++;
  }
  CHECK_INT(seen, 3);
  char small[64];
  CHECK(!ck_hmac_signature("k", "POST", "/p", "1", "n", NULL, 0, small, sizeof small)); /* 64 hex + NUL do not fit */
}

static void md5_vectors(const cJSON *vectors) {
  const cJSON *vector = NULL;
  int seen = 0;
  cJSON_ArrayForEach(vector, cJSON_GetObjectItemCaseSensitive(vectors, "md5")) {
    ck_form_field fields[16];
    size_t count = 0;
    const cJSON *field = NULL;
    cJSON_ArrayForEach(field, cJSON_GetObjectItemCaseSensitive(vector, "fields")) {
      fields[count].name = field->string;
      fields[count].value = field->valuestring;
      count++;
    }
    char input[512], sign[33];
    CHECK(ck_md5_signing_input(fields, count, json_text(vector, "secret"), input, sizeof input));
    CHECK_STR(input, json_text(vector, "input"));
    CHECK(ck_md5_sign(fields, count, json_text(vector, "secret"), sign, sizeof sign));
    CHECK_STR(sign, json_text(vector, "sign"));
    /* A buffer one byte short is refused, not overrun. */
    char short_input[512];
    CHECK(!ck_md5_signing_input(fields, count, json_text(vector, "secret"), short_input, strlen(json_text(vector, "input"))));
    CHECK_STR(short_input, "");
    seen++;
  }
  CHECK_INT(seen, 3);
}

int main(int argc, char **argv) {
  cJSON *vectors = load_vectors(argc > 1 ? argv[1] : NULL);
  hmac_vectors(vectors);
  md5_vectors(vectors);
  cJSON_Delete(vectors);
  return test_finish("test_signing");
}
