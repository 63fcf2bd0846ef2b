/* Legacy V1 transport encryption of the aggregate entry (docs/protocol.md §5.5): RC4, AES-256-CBC
 * and AES-256-GCM keyed by the project's transport_key as UTF-8 text (AES: its SHA-256), the
 * result base64 (standard alphabet, padded). AES comes from OpenSSL's libcrypto (see signing.c);
 * RC4 is implemented here because OpenSSL 3 only offers it in its legacy provider. */
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>
#include <sodium.h>

#include "internal.h"

#define CK_MAX_SEALED_TEXT (CK_MAX_REQUEST_BYTES)
#define GCM_IV 12
#define GCM_TAG 16
#define CBC_IV 16

int ck_transport_mode_ok(const char *mode) {
  return mode != NULL && (strcmp(mode, "rc4") == 0 || strcmp(mode, "aes") == 0 || strcmp(mode, "aes-gcm") == 0);
}

static void rc4(const unsigned char *key, size_t key_len, const unsigned char *in, unsigned char *out, size_t len) {
  unsigned char s[256];
  for (int i = 0; i < 256; i++) s[i] = (unsigned char)i;
  for (int i = 0, j = 0; i < 256; i++) {
    j = (j + s[i] + key[(size_t)i % key_len]) & 255;
    unsigned char t = s[i];
    s[i] = s[j];
    s[j] = t;
  }
  for (size_t n = 0, i = 0, j = 0; n < len; n++) {
    i = (i + 1) & 255;
    j = (j + s[i]) & 255;
    unsigned char t = s[i];
    s[i] = s[j];
    s[j] = t;
    out[n] = in[n] ^ s[(s[i] + s[j]) & 255];
  }
  sodium_memzero(s, sizeof s);
}

/* AES-256-CBC or -GCM in one pass; GCM's tag is written to (encrypt) or checked from (decrypt) `tag`. */
static int aes(const char *mode, int encrypt, const char *key_text, const unsigned char *iv, const unsigned char *in,
               size_t in_len, unsigned char *out, size_t *out_len, unsigned char *tag) {
  unsigned char key[crypto_hash_sha256_BYTES];
  crypto_hash_sha256(key, (const unsigned char *)key_text, strlen(key_text));
  int gcm = strcmp(mode, "aes-gcm") == 0;
  EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
  int ok = ctx != NULL && in_len <= CK_MAX_ANSWER_BYTES;
  int written = 0, last = 0;
  if (ok) ok = EVP_CipherInit_ex(ctx, gcm ? EVP_aes_256_gcm() : EVP_aes_256_cbc(), NULL, NULL, NULL, encrypt) == 1;
  if (ok && gcm) ok = EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_IVLEN, GCM_IV, NULL) == 1;
  if (ok) ok = EVP_CipherInit_ex(ctx, NULL, NULL, key, iv, encrypt) == 1;
  if (ok) ok = EVP_CipherUpdate(ctx, out, &written, in, (int)in_len) == 1;
  if (ok && gcm && !encrypt) ok = EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_SET_TAG, GCM_TAG, tag) == 1;
  if (ok) ok = EVP_CipherFinal_ex(ctx, out + written, &last) == 1; /* padding or tag checked here */
  if (ok && gcm && encrypt) ok = EVP_CIPHER_CTX_ctrl(ctx, EVP_CTRL_GCM_GET_TAG, GCM_TAG, tag) == 1;
  if (ok) *out_len = (size_t)written + (size_t)last;
  EVP_CIPHER_CTX_free(ctx);
  sodium_memzero(key, sizeof key);
  return ok;
}

int ck_transport_seal(const char *mode, const char *key, const unsigned char *plain, size_t plain_len,
                      const unsigned char *iv, char *out, size_t out_size) {
  if (out == NULL || out_size == 0) return 0;
  out[0] = '\0';
  if (!ck_transport_mode_ok(mode) || !ck_text_ok(key, 1024) || (plain == NULL && plain_len > 0) ||
      plain_len > CK_MAX_SEALED_TEXT)
    return 0;
  int is_rc4 = strcmp(mode, "rc4") == 0, gcm = strcmp(mode, "aes-gcm") == 0;
  size_t iv_len = is_rc4 ? 0 : gcm ? GCM_IV : CBC_IV;
  size_t sealed_cap = iv_len + plain_len + 16 + GCM_TAG;
  unsigned char *sealed = malloc(sealed_cap);
  if (sealed == NULL) return 0;
  size_t sealed_len = 0, body_len = 0;
  int ok = 1;
  if (is_rc4) {
    rc4((const unsigned char *)key, strlen(key), plain, sealed, plain_len);
    sealed_len = plain_len;
  } else {
    if (iv != NULL) memcpy(sealed, iv, iv_len);
    else randombytes_buf(sealed, iv_len);
    ok = aes(mode, 1, key, sealed, plain, plain_len, sealed + iv_len, &body_len, sealed + iv_len + plain_len + 16);
    if (ok && gcm) memmove(sealed + iv_len + body_len, sealed + iv_len + plain_len + 16, GCM_TAG);
    sealed_len = iv_len + body_len + (gcm ? GCM_TAG : 0);
  }
  if (ok) ok = out_size >= sodium_base64_ENCODED_LEN(sealed_len, sodium_base64_VARIANT_ORIGINAL);
  if (ok) sodium_bin2base64(out, out_size, sealed, sealed_len, sodium_base64_VARIANT_ORIGINAL);
  sodium_memzero(sealed, sealed_cap);
  free(sealed);
  return ok;
}

int ck_transport_open(const char *mode, const char *key, const char *data, unsigned char *out, size_t out_size,
                      size_t *out_len) {
  if (out == NULL || out_size == 0 || out_len == NULL) return 0;
  out[0] = '\0';
  *out_len = 0;
  if (!ck_transport_mode_ok(mode) || !ck_text_ok(key, 1024) || data == NULL) return 0;
  size_t data_len = strnlen(data, 2 * CK_MAX_ANSWER_BYTES + 1);
  if (data_len > 2 * CK_MAX_ANSWER_BYTES) return 0;
  size_t sealed_cap = data_len * 3 / 4 + 3, sealed_len = 0;
  unsigned char *sealed = malloc(sealed_cap);
  if (sealed == NULL) return 0;
  int ok = sodium_base642bin(sealed, sealed_cap, data, data_len, " \t\r\n", &sealed_len, NULL,
                             sodium_base64_VARIANT_ORIGINAL) == 0;
  size_t plain_len = 0;
  if (ok && strcmp(mode, "rc4") == 0) {
    ok = sealed_len < out_size;
    if (ok) rc4((const unsigned char *)key, strlen(key), sealed, out, sealed_len);
    plain_len = sealed_len;
  } else if (ok && strcmp(mode, "aes") == 0) {
    ok = sealed_len >= 2 * CBC_IV && sealed_len % CBC_IV == 0 && sealed_len - CBC_IV + 16 < out_size;
    if (ok) ok = aes(mode, 0, key, sealed, sealed + CBC_IV, sealed_len - CBC_IV, out, &plain_len, NULL);
  } else if (ok) {
    ok = sealed_len >= GCM_IV + GCM_TAG && sealed_len - GCM_IV - GCM_TAG + 16 < out_size;
    if (ok)
      ok = aes(mode, 0, key, sealed, sealed + GCM_IV, sealed_len - GCM_IV - GCM_TAG, out, &plain_len,
               sealed + sealed_len - GCM_TAG);
  }
  free(sealed);
  if (!ok) {
    sodium_memzero(out, out_size);
    out[0] = '\0';
    return 0;
  }
  out[plain_len] = '\0';
  *out_len = plain_len;
  return 1;
}
