/* Signed answers (docs/protocol.md §6.2, decisions §17): is this answer the service's answer to
 * this request? Ed25519 over "svc-response-v2\nMETHOD\nPATH\nNONCE\nTIMESTAMP\nSTATUS\nDIGEST\n"
 * + the body bytes as received, DIGEST the SHA-256 of the bytes this client sent. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>
#include <sodium.h>

#include "internal.h"

unsigned char *ck_base64url_decode(const char *text, size_t *len) {
  size_t text_len = strlen(text);
  if (text_len == 0 || text_len > 4 * CK_MAX_ANSWER_BYTES / 3) return NULL;
  /* Padding is tolerated: drop it, then decode the unpadded URL-safe alphabet. */
  while (text_len > 0 && text[text_len - 1] == '=') text_len--;
  unsigned char *out = malloc(text_len * 3 / 4 + 1);
  if (out == NULL) return NULL;
  if (sodium_base642bin(out, text_len * 3 / 4 + 1, text, text_len, NULL, len, NULL,
                        sodium_base64_VARIANT_URLSAFE_NO_PADDING) != 0) {
    free(out);
    return NULL;
  }
  return out;
}

int ck_public_key_bytes(const char *public_key, unsigned char out[32]) {
  size_t len = 0;
  if (public_key == NULL || strlen(public_key) > 64) return 0;
  unsigned char *raw = ck_base64url_decode(public_key, &len);
  int ok = raw != NULL && len == 32;
  if (ok) memcpy(out, raw, 32);
  free(raw);
  return ok;
}

static int timestamp_in_window(const char *timestamp, long max_skew, long long now) {
  size_t len = strlen(timestamp);
  if (len == 0 || len > 12) return 0;
  long long value = 0;
  for (size_t i = 0; i < len; i++) {
    if (timestamp[i] < '0' || timestamp[i] > '9') return 0;
    value = value * 10 + (timestamp[i] - '0');
  }
  long long distance = value > now ? value - now : now - value;
  return distance <= max_skew;
}

const char *ck_answer_distrust(const char *method, const char *path, const char *nonce,
                               const unsigned char *sent, size_t sent_len, int status,
                               const unsigned char *body, size_t body_len,
                               const char *timestamp_header, const char *key_header,
                               const char *signature_header, const char *version_header,
                               const ck_pinned_key *keys, size_t key_count, long max_skew_seconds, long long now) {
  if (method == NULL || path == NULL || (sent == NULL && sent_len > 0) || (body == NULL && body_len > 0))
    return "the answer cannot be checked";
  if (timestamp_header == NULL || key_header == NULL || signature_header == NULL || !timestamp_header[0] ||
      !key_header[0] || !signature_header[0])
    return "the answer is not signed";
  if (version_header == NULL || strcmp(version_header, "2") != 0)
    return "the answer is not signed in version 2";
  const char *public_key = NULL;
  for (size_t i = 0; i < key_count && keys != NULL; i++)
    if (keys[i].kid != NULL && strcmp(keys[i].kid, key_header) == 0) public_key = keys[i].public_key;
  if (public_key == NULL) return "the answer is signed with an unknown key";
  if (!timestamp_in_window(timestamp_header, max_skew_seconds, now)) return "the answer signature is outside the time window";
  if (body_len > CK_MAX_ANSWER_BYTES || strlen(path) > 2048 || (nonce != NULL && strlen(nonce) > CK_NONCE_MAX))
    return "the answer cannot be checked";

  unsigned char pk[32];
  size_t sig_len = 0;
  if (!ck_public_key_bytes(public_key, pk)) return "the answer signature does not verify";
  unsigned char *sig = strlen(signature_header) <= 128 ? ck_base64url_decode(signature_header, &sig_len) : NULL;
  if (sig == NULL || sig_len != crypto_sign_BYTES) {
    free(sig);
    return "the answer signature does not verify";
  }
  char digest[65];
  ck_sha256_hex(sent, sent_len, digest);
  char head[2400];
  int head_len = snprintf(head, sizeof head, "svc-response-v2\n%s\n%s\n%s\n%s\n%d\n%s\n", method, path,
                          nonce ? nonce : "", timestamp_header, status, digest);
  const char *verdict = "the answer signature does not verify";
  unsigned char *message = NULL;
  if (head_len > 0 && (size_t)head_len < sizeof head) message = malloc((size_t)head_len + body_len + 1);
  if (message == NULL) {
    free(sig);
    return head_len > 0 && (size_t)head_len < sizeof head ? "out of memory while checking the answer" : verdict;
  }
  memcpy(message, head, (size_t)head_len);
  if (body_len > 0) memcpy(message + head_len, body, body_len);
  if (crypto_sign_verify_detached(sig, message, (unsigned long long)head_len + body_len, pk) == 0) verdict = NULL;
  free(message);
  free(sig);
  return verdict;
}

static int untrusted(ck_result *result, const char *what) {
  char message[CK_MESSAGE_MAX];
  snprintf(message, sizeof message, "Untrusted answer: it is for another %s than the one sent", what);
  int status = result->http_status;
  char request_id[CK_ID_MAX];
  ck_copy_text(request_id, sizeof request_id, result->request_id);
  ck_result_free(result);
  ck_fail(result, CK_UNTRUSTED_RESPONSE, status, message);
  ck_copy_text(result->request_id, sizeof result->request_id, request_id);
  return 0;
}

static cJSON *success_data(ck_result *result) {
  cJSON *root = ck_result_tree(result);
  return root ? cJSON_GetObjectItemCaseSensitive(root, "data") : NULL;
}

int ck_bind_card(ck_result *result, const char *machine_id, const char *card_key) {
  if (!result->success) return 0;
  cJSON *data = success_data(result);
  cJSON *machine = cJSON_IsObject(data) ? cJSON_GetObjectItemCaseSensitive(data, "machine_code") : NULL;
  if (!cJSON_IsString(machine) || strcmp(machine->valuestring, machine_id) != 0) return untrusted(result, "device");
  cJSON *code = card_key ? cJSON_GetObjectItemCaseSensitive(data, "code") : NULL;
  /* The card is checked where the answer carries it (every family but Connect). */
  if (code != NULL && !cJSON_IsNull(code) && (!cJSON_IsString(code) || strcmp(code->valuestring, card_key) != 0))
    return untrusted(result, "card");
  return 1;
}

int ck_bind_owner(ck_result *result, const char *field, long long owner_id, const char *what) {
  if (!result->success || owner_id == 0) return result->success;
  long long found = 0;
  char path[64];
  snprintf(path, sizeof path, "data.%s", field);
  if (!ck_result_int(result, path, &found) || found != owner_id) return untrusted(result, what);
  return 1;
}
