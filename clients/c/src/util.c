/* Bounded buffers, text copies, form encoding, nonces and time: the small things every file needs. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sodium.h>

#include "internal.h"

void ck_buf_init(ck_buf *buf, size_t limit) {
  memset(buf, 0, sizeof *buf);
  buf->limit = limit;
}

static int ck_buf_reserve(ck_buf *buf, size_t extra) {
  if (buf->failed) return 0;
  /* +1 keeps room for the NUL of ck_buf_cstr; the checks avoid any overflow of len + extra. */
  if (extra > buf->limit || buf->len > buf->limit - extra) {
    buf->failed = 1;
    return 0;
  }
  size_t needed = buf->len + extra + 1;
  if (needed <= buf->cap) return 1;
  size_t cap = buf->cap ? buf->cap : 256;
  while (cap < needed) cap = cap > (SIZE_MAX / 2) ? needed : cap * 2;
  unsigned char *grown = malloc(cap);
  if (grown == NULL) {
    buf->failed = 1;
    return 0;
  }
  if (buf->data != NULL) {
    memcpy(grown, buf->data, buf->len);
    sodium_memzero(buf->data, buf->cap); /* no copy of a secret is left behind in freed memory */
    free(buf->data);
  }
  buf->data = grown;
  buf->cap = cap;
  return 1;
}

int ck_buf_append(ck_buf *buf, const void *bytes, size_t len) {
  if (len == 0) return !buf->failed && ck_buf_reserve(buf, 0);
  if (!ck_buf_reserve(buf, len)) return 0;
  memcpy(buf->data + buf->len, bytes, len);
  buf->len += len;
  buf->data[buf->len] = '\0';
  return 1;
}

int ck_buf_append_str(ck_buf *buf, const char *text) { return ck_buf_append(buf, text, strlen(text)); }

const char *ck_buf_cstr(ck_buf *buf) {
  if (buf->failed) return NULL;
  if (buf->data == NULL && !ck_buf_reserve(buf, 0)) return NULL;
  buf->data[buf->len] = '\0';
  return (const char *)buf->data;
}

void ck_buf_free(ck_buf *buf) {
  if (buf->data != NULL) {
    sodium_memzero(buf->data, buf->cap);
    free(buf->data);
  }
  size_t limit = buf->limit;
  memset(buf, 0, sizeof *buf);
  buf->limit = limit;
}

static int ck_buf_append_encoded(ck_buf *buf, const char *text) {
  static const char hex[] = "0123456789ABCDEF";
  for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
    unsigned char c = *p;
    if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_' ||
        c == '~') {
      if (!ck_buf_append(buf, p, 1)) return 0;
    } else {
      char escaped[3] = {'%', hex[c >> 4], hex[c & 15]};
      if (!ck_buf_append(buf, escaped, 3)) return 0;
    }
  }
  return 1;
}

int ck_buf_append_form(ck_buf *buf, const char *name, const char *value) {
  if (buf->len > 0 && !ck_buf_append(buf, "&", 1)) return 0;
  return ck_buf_append_encoded(buf, name) && ck_buf_append(buf, "=", 1) && ck_buf_append_encoded(buf, value);
}

int ck_copy_text(char *dst, size_t size, const char *src) {
  if (size == 0) return 0;
  if (src == NULL) {
    dst[0] = '\0';
    return 1;
  }
  size_t len = strlen(src);
  if (len < size) {
    memcpy(dst, src, len + 1);
    return 1;
  }
  /* Cut on a UTF-8 boundary so that a shown message stays valid text. */
  size_t cut = size - 1;
  while (cut > 0 && ((unsigned char)src[cut] & 0xC0) == 0x80) cut--;
  memcpy(dst, src, cut);
  dst[cut] = '\0';
  return 0;
}

int ck_text_ok(const char *text, size_t max) {
  if (text == NULL || text[0] == '\0') return 0;
  return strnlen(text, max + 1) <= max;
}

void ck_new_nonce(char out[25]) {
  unsigned char random[12];
  randombytes_buf(random, sizeof random);
  sodium_bin2hex(out, 25, random, sizeof random);
}

long long ck_now(void) { return (long long)time(NULL); }

void ck_sleep_ms(long ms) {
  if (ms <= 0) return;
  struct timespec wait = {ms / 1000, (ms % 1000) * 1000000L};
  while (nanosleep(&wait, &wait) != 0 && errno == EINTR) {
  }
}

void ck_sha256_hex(const unsigned char *bytes, size_t len, char out[65]) {
  unsigned char digest[crypto_hash_sha256_BYTES];
  crypto_hash_sha256(digest, bytes, (unsigned long long)len);
  sodium_bin2hex(out, 65, digest, sizeof digest);
}
