/* Offline licences (docs/protocol.md §6.3): base64url(payload) "." base64url(Ed25519 over
 * "svc-licence-v1." + the encoded payload), checked without a network with the pinned keys. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>
#include <sodium.h>

#include "internal.h"

#define CK_MAX_LICENCE_BYTES 8192

static int refuse(ck_licence_check *out, const char *reason) {
  out->valid = 0;
  ck_copy_text(out->reason, sizeof out->reason, reason);
  return 0;
}

static int integer_of(const cJSON *item, long long *value) {
  if (!cJSON_IsNumber(item) || item->valuedouble != floor(item->valuedouble) || fabs(item->valuedouble) > 9.0e15)
    return 0;
  *value = (long long)item->valuedouble;
  return 1;
}

static int string_is(const cJSON *item, const char *expected) {
  return cJSON_IsString(item) && expected != NULL && strcmp(item->valuestring, expected) == 0;
}

static int signature_verifies(const char *encoded, size_t encoded_len, const char *signature, const unsigned char pk[32]) {
  size_t sig_len = 0;
  unsigned char *sig = strlen(signature) <= 128 ? ck_base64url_decode(signature, &sig_len) : NULL;
  static const char prefix[] = "svc-licence-v1.";
  unsigned char *message = malloc(sizeof prefix - 1 + encoded_len);
  int ok = sig != NULL && sig_len == crypto_sign_BYTES && message != NULL;
  if (ok) {
    memcpy(message, prefix, sizeof prefix - 1);
    memcpy(message + sizeof prefix - 1, encoded, encoded_len);
    ok = crypto_sign_verify_detached(sig, message, sizeof prefix - 1 + encoded_len, pk) == 0;
  }
  free(sig);
  free(message);
  return ok;
}

static int check_payload(const cJSON *payload, const char *encoded, size_t encoded_len, const char *signature,
                         const ck_pinned_key *keys, size_t key_count, const char *program_id, const char *machine_id,
                         const char *card_key, long long now, ck_licence_check *out) {
  long long valid_until = 0;
  if (!cJSON_IsObject(payload) || !integer_of(cJSON_GetObjectItemCaseSensitive(payload, "valid_until"), &valid_until))
    return refuse(out, "not a licence");
  const cJSON *kid = cJSON_GetObjectItemCaseSensitive(payload, "kid");
  const char *public_key = NULL;
  for (size_t i = 0; cJSON_IsString(kid) && i < key_count; i++)
    if (keys[i].kid != NULL && strcmp(keys[i].kid, kid->valuestring) == 0) public_key = keys[i].public_key;
  unsigned char pk[32];
  if (public_key == NULL || !ck_public_key_bytes(public_key, pk)) return refuse(out, "signed with an unknown key");
  if (!signature_verifies(encoded, encoded_len, signature, pk)) return refuse(out, "the signature does not verify");
  long long version = 0;
  if (!integer_of(cJSON_GetObjectItemCaseSensitive(payload, "v"), &version) || version != 1 ||
      !string_is(cJSON_GetObjectItemCaseSensitive(payload, "program_id"), program_id))
    return refuse(out, "for another program");
  if (!string_is(cJSON_GetObjectItemCaseSensitive(payload, "machine_id"), machine_id))
    return refuse(out, "for another machine");
  if (card_key != NULL) {
    char digest[65];
    ck_sha256_hex((const unsigned char *)card_key, strlen(card_key), digest);
    if (!string_is(cJSON_GetObjectItemCaseSensitive(payload, "card_code_sha256"), digest))
      return refuse(out, "for another card");
  }
  if ((now ? now : ck_now()) > valid_until) return refuse(out, "expired");

  out->valid = 1;
  out->valid_until = valid_until;
  ck_copy_text(out->program_id, sizeof out->program_id, program_id);
  ck_copy_text(out->machine_id, sizeof out->machine_id, machine_id);
  integer_of(cJSON_GetObjectItemCaseSensitive(payload, "card_id"), &out->card_id);
  integer_of(cJSON_GetObjectItemCaseSensitive(payload, "issued_at"), &out->issued_at);
  integer_of(cJSON_GetObjectItemCaseSensitive(payload, "card_expires_at"), &out->card_expires_at);
  ck_read_features(payload, &out->features_present, &out->feature_count, out->features);
  out->trial = ck_read_trial(payload);
  return 1;
}

int ck_verify_licence(const char *licence, const ck_pinned_key *keys, size_t key_count, const char *program_id,
                      const char *machine_id, const char *card_key, long long now, ck_licence_check *out) {
  if (out == NULL) return 0;
  memset(out, 0, sizeof *out);
  if (licence == NULL || program_id == NULL || machine_id == NULL || keys == NULL)
    return refuse(out, "a licence, the pinned keys, the program and the machine are needed");
  size_t len = strnlen(licence, CK_MAX_LICENCE_BYTES + 1);
  const char *dot = memchr(licence, '.', len);
  if (len > CK_MAX_LICENCE_BYTES || dot == NULL || dot == licence || dot[1] == '\0' || strchr(dot + 1, '.') != NULL)
    return refuse(out, "not a licence");
  size_t encoded_len = (size_t)(dot - licence);
  char *encoded = malloc(encoded_len + 1);
  if (encoded == NULL) return refuse(out, "out of memory");
  memcpy(encoded, licence, encoded_len);
  encoded[encoded_len] = '\0';
  size_t payload_len = 0;
  unsigned char *payload_text = ck_base64url_decode(encoded, &payload_len);
  cJSON *payload = payload_text ? cJSON_ParseWithLength((const char *)payload_text, payload_len) : NULL;
  int valid = check_payload(payload, encoded, encoded_len, dot + 1, keys, key_count, program_id, machine_id, card_key,
                            now, out);
  cJSON_Delete(payload);
  free(payload_text);
  free(encoded);
  return valid;
}
