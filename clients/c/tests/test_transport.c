/* Legacy transport encryption (§5.5) against the shared vectors (made with OpenSSL elsewhere). */
#include <string.h>

#include <sodium.h>

#include "support.h"

static void mode_vectors(const cJSON *transport, const char *mode) {
  const cJSON *vector = NULL;
  int seen = 0;
  cJSON_ArrayForEach(vector, cJSON_GetObjectItemCaseSensitive(transport, mode)) {
    const char *key = json_text(vector, "key"), *plain = json_text(vector, "plaintext"), *data = json_text(vector, "data");
    unsigned char iv[16];
    const char *iv_hex = json_text(vector, "iv_hex");
    if (iv_hex) sodium_hex2bin(iv, sizeof iv, iv_hex, strlen(iv_hex), NULL, NULL, NULL);
    char sealed[1024];
    CHECK(ck_transport_seal(mode, key, (const unsigned char *)plain, strlen(plain), iv_hex ? iv : NULL, sealed, sizeof sealed));
    CHECK_STR(sealed, data);
    unsigned char opened[1024];
    size_t len = 0;
    CHECK(ck_transport_open(mode, key, data, opened, sizeof opened, &len));
    CHECK_INT(len, strlen(plain));
    CHECK_STR((const char *)opened, plain);
    /* Too small an output is refused, not overrun. */
    CHECK(!ck_transport_open(mode, key, data, opened, strlen(plain) / 2, &len));
    CHECK(!ck_transport_seal(mode, key, (const unsigned char *)plain, strlen(plain), iv_hex ? iv : NULL, sealed, 8));
    seen++;
  }
  CHECK_INT(seen, 3);
}

static void tampering_is_refused(const cJSON *transport) {
  const cJSON *gcm = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(transport, "aes-gcm"), 0);
  char data[1024];
  snprintf(data, sizeof data, "%s", json_text(gcm, "data"));
  data[20] = data[20] == 'A' ? 'B' : 'A';
  unsigned char opened[1024];
  size_t len = 0;
  CHECK(!ck_transport_open("aes-gcm", json_text(gcm, "key"), data, opened, sizeof opened, &len));
  CHECK(!ck_transport_open("aes-gcm", "another-key", json_text(gcm, "data"), opened, sizeof opened, &len));
  CHECK(!ck_transport_open("aes", "k", "not base64 !!", opened, sizeof opened, &len));
  CHECK(!ck_transport_open("aes", "k", "AAAA", opened, sizeof opened, &len)); /* shorter than IV + block */
  CHECK(!ck_transport_open("des", "k", "AAAA", opened, sizeof opened, &len));
  /* A fresh IV each time: two seals of one text differ. */
  char first[256], second[256];
  CHECK(ck_transport_seal("aes-gcm", "k", (const unsigned char *)"same", 4, NULL, first, sizeof first));
  CHECK(ck_transport_seal("aes-gcm", "k", (const unsigned char *)"same", 4, NULL, second, sizeof second));
  CHECK(strcmp(first, second) != 0);
}

int main(int argc, char **argv) {
  cJSON *vectors = load_vectors(argc > 1 ? argv[1] : NULL);
  const cJSON *transport = cJSON_GetObjectItemCaseSensitive(vectors, "transport");
  mode_vectors(transport, "rc4");
  mode_vectors(transport, "aes");
  mode_vectors(transport, "aes-gcm");
  tampering_is_refused(transport);
  cJSON_Delete(vectors);
  return test_finish("test_transport");
}
