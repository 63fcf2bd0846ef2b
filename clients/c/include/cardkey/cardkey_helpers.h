/*
 * cardkey_helpers.h — the signing and verification steps of the C client, for integrators who
 * check their own code against sdk/vectors/signing-vectors.json (the client's tests do), and the
 * HTTP seam (ck_exchange_fn) that replaces libcurl.
 *
 * Every output buffer has a size; a call that would not fit returns 0 (or CK_HELPER_TOO_SMALL)
 * and writes an empty string, never past the end.
 */
#ifndef CARDKEY_HELPERS_H
#define CARDKEY_HELPERS_H

#include <stddef.h>
#include "cardkey.h"

#ifdef __cplusplus
extern "C" {
#endif

/* X-Svc-Signature (§3): lowercase hex HMAC-SHA256 of METHOD\nPATH\nTIMESTAMP\nNONCE\nBODY.
   out: at least 65 bytes. 1 on success. */
CK_API int ck_hmac_signature(const char *api_secret, const char *method, const char *path, const char *timestamp,
                      const char *nonce, const unsigned char *body, size_t body_len, char *out, size_t out_size);

typedef struct ck_form_field {
  const char *name;
  const char *value;
} ck_form_field;

/* The legacy MD5 signing input (§5.3): non-empty fields but `sign`, sorted by name, `k=v` raw,
   joined by `&`, then `&key=` + secret. 1 when it fits in out. */
CK_API int ck_md5_signing_input(const ck_form_field *fields, size_t count, const char *legacy_secret, char *out, size_t out_size);
/* `sign`: lowercase hex MD5 of that input. out: at least 33 bytes. */
CK_API int ck_md5_sign(const ck_form_field *fields, size_t count, const char *legacy_secret, char *out, size_t out_size);

/* Why a signed answer cannot be trusted (§6.2, signature v2), or NULL when it can. `sent` is what
   REQUEST_DIGEST hashes: the body as sent, or a GET's query without '?'. Headers as received
   (NULL when absent). now: Unix seconds. */
CK_API const char *ck_answer_distrust(const char *method, const char *path, const char *nonce,
                               const unsigned char *sent, size_t sent_len, int status,
                               const unsigned char *body, size_t body_len,
                               const char *timestamp_header, const char *key_header,
                               const char *signature_header, const char *version_header,
                               const ck_pinned_key *keys, size_t key_count, long max_skew_seconds, long long now);

/* The offline licence check without a client (§6.3). card_key may be NULL (not checked). */
CK_API int ck_verify_licence(const char *licence, const ck_pinned_key *keys, size_t key_count, const char *program_id,
                      const char *machine_id, const char *card_key, long long now, ck_licence_check *out);

/* Legacy transport encryption (§5.5): mode "rc4", "aes" or "aes-gcm". seal: base64 of the sealed
   text; iv NULL draws a fresh one (a fixed iv is for the vectors only: 16 bytes aes, 12 aes-gcm).
   open: the plaintext (NUL-terminated, out_len without it). 1 on success, 0 when it does not open
   or does not fit. */
CK_API int ck_transport_seal(const char *mode, const char *key, const unsigned char *plain, size_t plain_len,
                      const unsigned char *iv, char *out, size_t out_size);
CK_API int ck_transport_open(const char *mode, const char *key, const char *data, unsigned char *out, size_t out_size,
                      size_t *out_len);

/* Judges an answer by a family's success rule alone (no trust checks): family "connect",
   "standard" or "legacy"; success_code -1, or 0/1 for routes that fix theirs. Fills result. */
CK_API int ck_judge(const char *family, int http_status, const char *body, size_t body_len, int success_code,
             ck_result *result);

/* ---- The HTTP seam ---- */
struct ck_http_request {
  const char *method;  /* "POST" */
  const char *url;     /* base URL + path */
  const char *path;
  const char *const *headers; /* "Name: value" lines */
  size_t header_count;
  const unsigned char *body;
  size_t body_len;
  long timeout_ms;
};
CK_API void ck_answer_set_status(ck_http_answer *answer, int status);
/* One header, as received; the client keeps those it reads (first value wins). */
CK_API void ck_answer_add_header(ck_http_answer *answer, const char *name, const char *value);
/* Appends body bytes; 0 when the answer would pass the client's limit (it is then refused). */
CK_API int ck_answer_append_body(ck_http_answer *answer, const void *bytes, size_t len);

#ifdef __cplusplus
}
#endif
#endif
