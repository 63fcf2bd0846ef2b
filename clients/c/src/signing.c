/* Request signing exactly as the service verifies it (docs/protocol.md §3 HMAC, §5.3 MD5).
 *
 * HMAC-SHA256 comes from libsodium; MD5 from OpenSSL's libcrypto, which the client links anyway
 * for AES-CBC and AES-GCM (libsodium's AES-GCM needs AES-NI, so it cannot serve every machine,
 * and libcurl4-openssl-dev already depends on libssl-dev). OpenSSL 3 keeps MD5 in its default
 * provider; RC4 went to the legacy provider, so RC4 is the client's own (transport.c).
 */
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>
#include <sodium.h>

#include "internal.h"

int ck_hmac_signature(const char *api_secret, const char *method, const char *path, const char *timestamp,
                      const char *nonce, const unsigned char *body, size_t body_len, char *out, size_t out_size) {
  if (out == NULL || out_size < 65) return 0;
  out[0] = '\0';
  if (api_secret == NULL || method == NULL || path == NULL || timestamp == NULL || nonce == NULL ||
      (body == NULL && body_len > 0))
    return 0;
  crypto_auth_hmacsha256_state state;
  unsigned char mac[crypto_auth_hmacsha256_BYTES];
  const char *parts[] = {method, "\n", path, "\n", timestamp, "\n", nonce, "\n"};
  crypto_auth_hmacsha256_init(&state, (const unsigned char *)api_secret, strlen(api_secret));
  for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
    crypto_auth_hmacsha256_update(&state, (const unsigned char *)parts[i], strlen(parts[i]));
  if (body_len > 0) crypto_auth_hmacsha256_update(&state, body, (unsigned long long)body_len);
  crypto_auth_hmacsha256_final(&state, mac);
  sodium_memzero(&state, sizeof state);
  sodium_bin2hex(out, out_size, mac, sizeof mac);
  return 1;
}

static int by_name(const void *a, const void *b) {
  /* Field names are ASCII here, where byte order is the service's code-unit order. */
  return strcmp((*(const ck_form_field *const *)a)->name, (*(const ck_form_field *const *)b)->name);
}

int ck_md5_signing_input(const ck_form_field *fields, size_t count, const char *legacy_secret, char *out, size_t out_size) {
  if (out == NULL || out_size == 0) return 0;
  out[0] = '\0';
  if (fields == NULL || legacy_secret == NULL || count > 64) return 0;
  const ck_form_field *sorted[64];
  size_t kept = 0;
  for (size_t i = 0; i < count; i++) {
    if (fields[i].name == NULL || fields[i].value == NULL) return 0;
    if (strcmp(fields[i].name, "sign") == 0 || fields[i].value[0] == '\0') continue;
    sorted[kept++] = &fields[i];
  }
  qsort(sorted, kept, sizeof sorted[0], by_name);
  ck_buf input;
  ck_buf_init(&input, out_size - 1);
  for (size_t i = 0; i < kept; i++) {
    if (i > 0) ck_buf_append_str(&input, "&");
    ck_buf_append_str(&input, sorted[i]->name);
    ck_buf_append_str(&input, "=");
    ck_buf_append_str(&input, sorted[i]->value); /* raw, never URL-encoded */
  }
  ck_buf_append_str(&input, "&key=");
  ck_buf_append_str(&input, legacy_secret);
  const char *text = ck_buf_cstr(&input);
  int ok = text != NULL && ck_copy_text(out, out_size, text);
  if (!ok) out[0] = '\0';
  ck_buf_free(&input);
  return ok;
}

int ck_md5_sign(const ck_form_field *fields, size_t count, const char *legacy_secret, char *out, size_t out_size) {
  if (out == NULL || out_size < 33) return 0;
  out[0] = '\0';
  char *input = malloc(CK_MAX_REQUEST_BYTES);
  if (input == NULL) return 0;
  int ok = ck_md5_signing_input(fields, count, legacy_secret, input, CK_MAX_REQUEST_BYTES);
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int digest_len = 0;
  if (ok) ok = EVP_Digest(input, strlen(input), digest, &digest_len, EVP_md5(), NULL) == 1 && digest_len == 16;
  if (ok) sodium_bin2hex(out, out_size, digest, 16);
  sodium_memzero(input, CK_MAX_REQUEST_BYTES); /* it ends with the legacy secret */
  free(input);
  return ok;
}
