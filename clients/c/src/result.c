/* Results and each family's success rule (docs/protocol.md §1, docs/errors.md): Connect
 * `status === true`; standard `success` when boolean, else `code` 0 or 1 (a route with its own
 * success code: exactly that code, never with success false); legacy `code === 1`. A failure
 * never carries 0 or 1: an answer failing its rule with such a code is UNEXPECTED_RESPONSE. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "internal.h"

static const char *const CONNECT_TOP[] = {"status", "code", "reason", "data", "request_id"};
static const char *const CONNECT_DATA[] = {"token", "expires_at", "device_limit", "server_time", "machine_code", "announcement"};

void ck_result_clear(ck_result *result) {
  memset(result, 0, sizeof *result);
  result->retry_after_seconds = -1;
}

int ck_fail(ck_result *result, long code, int http_status, const char *message) {
  ck_result_clear(result);
  result->code = code;
  result->http_status = http_status;
  ck_copy_text(result->message, sizeof result->message, message);
  return 0;
}

void *ck_result_tree(const ck_result *result) { return result ? result->answer : NULL; }

void ck_result_free(ck_result *result) {
  if (result == NULL) return;
  cJSON_Delete((cJSON *)result->answer);
  result->answer = NULL;
}

static int integer_of(const cJSON *item, long long *value) {
  if (!cJSON_IsNumber(item) || item->valuedouble != floor(item->valuedouble) || fabs(item->valuedouble) > 9.0e15)
    return 0;
  *value = (long long)item->valuedouble;
  return 1;
}

void ck_read_features(const void *data_json, int *present, size_t *count, char features[][CK_FEATURE_MAX]) {
  const cJSON *list = cJSON_IsObject((const cJSON *)data_json)
                          ? cJSON_GetObjectItemCaseSensitive((const cJSON *)data_json, "features")
                          : NULL;
  *present = 0;
  *count = 0;
  if (!cJSON_IsArray(list)) return;
  *present = 1;
  const cJSON *item = NULL;
  cJSON_ArrayForEach(item, list) {
    /* Names are 1–32 characters (decisions §19); anything else is not a feature name. */
    if (*count == CK_MAX_FEATURES || !cJSON_IsString(item) || !ck_text_ok(item->valuestring, CK_FEATURE_MAX - 1)) continue;
    ck_copy_text(features[*count], CK_FEATURE_MAX, item->valuestring);
    (*count)++;
  }
}

int ck_read_trial(const void *data_json) {
  if (!cJSON_IsObject((const cJSON *)data_json)) return 0;
  return cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive((const cJSON *)data_json, "trial")) ? 1 : 0;
}

static void rename_back(cJSON *object, const ck_client *client, const char *const *fields, size_t field_count) {
  for (size_t f = 0; f < field_count; f++) {
    for (size_t i = 0; i < client->field_name_count; i++) {
      if (strcmp(client->field_standard[i], fields[f]) != 0 || strcmp(client->field_custom[i], fields[f]) == 0) continue;
      cJSON *value = cJSON_DetachItemFromObjectCaseSensitive(object, client->field_custom[i]);
      if (value == NULL) continue;
      cJSON_DeleteItemFromObjectCaseSensitive(object, fields[f]);
      cJSON_AddItemToObject(object, fields[f], value);
    }
  }
}

static int is_success(const char *family, const cJSON *body, int success_code) {
  long long code = 0;
  int has_code = integer_of(cJSON_GetObjectItemCaseSensitive(body, "code"), &code);
  if (strcmp(family, "connect") == 0) return cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(body, "status"));
  if (strcmp(family, "legacy") == 0) return has_code && code == 1;
  const cJSON *success = cJSON_GetObjectItemCaseSensitive(body, "success");
  if (success_code >= 0) return has_code && code == success_code && !cJSON_IsFalse(success);
  if (cJSON_IsBool(success)) return cJSON_IsTrue(success);
  return has_code && (code == 0 || code == 1);
}

static void unexpected_message(ck_result *result, int status, const char *content_type) {
  if (status >= 300 && status < 400)
    snprintf(result->message, sizeof result->message, "Unexpected redirect (HTTP %d): check the service address", status);
  else
    snprintf(result->message, sizeof result->message, "Unexpected answer (HTTP %d, %.100s): check the service address",
             status, content_type && content_type[0] ? content_type : "no content type");
}

static void read_common(ck_result *result, const cJSON *body, const char *family) {
  const cJSON *request_id = cJSON_GetObjectItemCaseSensitive(body, "request_id");
  if (cJSON_IsString(request_id)) ck_copy_text(result->request_id, sizeof result->request_id, request_id->valuestring);
  const cJSON *message = cJSON_GetObjectItemCaseSensitive(body, strcmp(family, "connect") == 0 ? "reason" : "msg");
  if (cJSON_IsString(message)) ck_copy_text(result->message, sizeof result->message, message->valuestring);
  const cJSON *data = cJSON_GetObjectItemCaseSensitive(body, "data");
  if (!cJSON_IsObject(data)) return;
  const cJSON *ended_by = cJSON_GetObjectItemCaseSensitive(data, "ended_by");
  const cJSON *ended_at = cJSON_GetObjectItemCaseSensitive(data, "ended_at");
  if (cJSON_IsString(ended_by)) ck_copy_text(result->ended_by, sizeof result->ended_by, ended_by->valuestring);
  if (cJSON_IsString(ended_at)) ck_copy_text(result->ended_at, sizeof result->ended_at, ended_at->valuestring);
  ck_read_features(data, &result->features_present, &result->feature_count, result->features);
  result->trial = ck_read_trial(data);
}

static int judge(const char *family, int status, const unsigned char *bytes, size_t len, const char *content_type,
                 const char *header_request_id, const char *retry_after, const ck_client *client, int success_code,
                 ck_result *result) {
  ck_result_clear(result);
  result->http_status = status;
  if (retry_after != NULL && retry_after[0]) {
    char *end = NULL;
    double seconds = strtod(retry_after, &end);
    if (end != retry_after && *end == '\0' && seconds >= 0 && seconds < 1e9) result->retry_after_seconds = (long)ceil(seconds);
  }
  cJSON *body = len > 0 ? cJSON_ParseWithLength((const char *)bytes, len) : NULL;
  if (!cJSON_IsObject(body) || (status >= 300 && status < 400)) {
    cJSON_Delete(body);
    if (header_request_id) ck_copy_text(result->request_id, sizeof result->request_id, header_request_id);
    result->code = CK_UNEXPECTED_RESPONSE;
    unexpected_message(result, status, content_type);
    return 0;
  }
  if (strcmp(family, "connect") == 0 && client != NULL && client->field_name_count > 0) {
    rename_back(body, client, CONNECT_TOP, sizeof CONNECT_TOP / sizeof CONNECT_TOP[0]);
    cJSON *data = cJSON_GetObjectItemCaseSensitive(body, "data");
    if (cJSON_IsObject(data)) rename_back(data, client, CONNECT_DATA, sizeof CONNECT_DATA / sizeof CONNECT_DATA[0]);
  }
  result->answer = body;
  read_common(result, body, family);
  if (!result->request_id[0] && header_request_id) ck_copy_text(result->request_id, sizeof result->request_id, header_request_id);
  long long code = 0;
  int has_code = integer_of(cJSON_GetObjectItemCaseSensitive(body, "code"), &code);
  if (is_success(family, body, success_code)) {
    result->success = 1;
    result->code = has_code ? (long)code : strcmp(family, "standard") == 0 ? 0 : 1;
    return 1;
  }
  const cJSON *error_id = cJSON_GetObjectItemCaseSensitive(body, "error_id");
  if (cJSON_IsString(error_id)) ck_copy_text(result->error_id, sizeof result->error_id, error_id->valuestring);
  if (has_code && (code > 1 || code < -1) && code < 1000000 && code > -1000000) {
    result->code = (long)(code < 0 ? -code : code);
    if (!result->message[0]) unexpected_message(result, status, content_type);
  } else {
    result->code = CK_UNEXPECTED_RESPONSE;
    if (has_code)
      snprintf(result->message, sizeof result->message,
               "Unexpected answer (HTTP %d): code %lld is neither this route's success nor a failure code", status, code);
    else if (!result->message[0])
      unexpected_message(result, status, content_type);
  }
  return 0;
}

int ck_judge_answer(const char *family, const ck_http_answer *answer, const ck_client *client, int success_code,
                    ck_result *result) {
  return judge(family, answer->status, answer->body.data, answer->body.len, answer->content_type, answer->request_id,
               answer->retry_after, client, success_code, result);
}

int ck_judge(const char *family, int http_status, const char *body, size_t body_len, int success_code, ck_result *result) {
  if (result == NULL) return 0;
  if (family == NULL || (strcmp(family, "connect") != 0 && strcmp(family, "standard") != 0 && strcmp(family, "legacy") != 0) ||
      (success_code != -1 && (strcmp(family, "standard") != 0 || success_code < 0 || success_code > 1)) ||
      (body == NULL && body_len > 0) || body_len > CK_MAX_ANSWER_BYTES)
    return ck_fail(result, CK_INVALID_ARGUMENT, 0, "ck_judge: family connect, standard or legacy; success_code -1, or 0/1 on standard");
  return judge(family, http_status, (const unsigned char *)body, body_len, "application/json", NULL, NULL, NULL,
               success_code, result);
}

/* ---- reading a result by path ---- */

static const cJSON *lookup(const ck_result *result, const char *path) {
  const cJSON *node = result ? (const cJSON *)result->answer : NULL;
  if (node == NULL || path == NULL) return NULL;
  char segment[128];
  const char *start = path;
  while (node != NULL) {
    const char *end = strchr(start, '.');
    size_t len = end ? (size_t)(end - start) : strlen(start);
    if (len == 0 || len >= sizeof segment) return NULL;
    memcpy(segment, start, len);
    segment[len] = '\0';
    if (cJSON_IsArray(node)) {
      char *rest = NULL;
      long index = strtol(segment, &rest, 10);
      if (*rest != '\0' || index < 0 || segment[0] == '-' || segment[0] == '+') return NULL;
      node = cJSON_GetArrayItem(node, (int)(index > 1000000 ? -1 : index));
    } else if (cJSON_IsObject(node)) {
      node = cJSON_GetObjectItemCaseSensitive(node, segment);
    } else {
      return NULL;
    }
    if (end == NULL) return node;
    start = end + 1;
  }
  return NULL;
}

int ck_result_text(const ck_result *result, const char *path, char *out, size_t out_size) {
  if (out == NULL || out_size == 0) return 0;
  out[0] = '\0';
  const cJSON *item = lookup(result, path);
  if (!cJSON_IsString(item) || strlen(item->valuestring) >= out_size) return 0;
  return ck_copy_text(out, out_size, item->valuestring);
}

int ck_result_int(const ck_result *result, const char *path, long long *out) {
  long long value = 0;
  if (out == NULL || !integer_of(lookup(result, path), &value)) return 0;
  *out = value;
  return 1;
}

int ck_result_bool(const ck_result *result, const char *path, int *out) {
  const cJSON *item = lookup(result, path);
  if (out == NULL || !cJSON_IsBool(item)) return 0;
  *out = cJSON_IsTrue(item) ? 1 : 0;
  return 1;
}

int ck_result_is_null(const ck_result *result, const char *path) { return cJSON_IsNull(lookup(result, path)) ? 1 : 0; }

size_t ck_result_count(const ck_result *result, const char *path) {
  const cJSON *item = lookup(result, path);
  return cJSON_IsArray(item) || cJSON_IsObject(item) ? (size_t)cJSON_GetArraySize(item) : 0;
}

const char *ck_code_name(long code) {
  static const struct {
    long code;
    const char *name;
  } names[] = {
      {CK_NETWORK_ERROR, "NETWORK_ERROR"}, {CK_UNEXPECTED_RESPONSE, "UNEXPECTED_RESPONSE"}, {CK_NO_SESSION, "NO_SESSION"},
      {CK_UNTRUSTED_RESPONSE, "UNTRUSTED_RESPONSE"}, {CK_INVALID_ARGUMENT, "INVALID_ARGUMENT"},
      {CK_OUT_OF_MEMORY, "OUT_OF_MEMORY"}, {10001, "BAD_REQUEST"}, {10002, "METHOD_NOT_ALLOWED"},
      {10003, "CIPHERTEXT_NOT_ALLOWED"}, {10004, "APP_REQUIRED"}, {10005, "INTERNAL_KEY_NOT_ACCEPTED"}, {10006, "NOT_FOUND"},
      {10007, "UNSUPPORTED_MEDIA_TYPE"}, {10008, "PAYLOAD_TOO_LARGE"}, {10009, "DOWNLOAD_ADDRESS_INVALID"},
      {10010, "HTTPS_REQUIRED"}, {10101, "SIGNATURE_INVALID"}, {10102, "TIMESTAMP_OUT_OF_WINDOW"}, {10103, "NONCE_REPLAYED"},
      {10201, "PROGRAM_NOT_FOUND"}, {10202, "PROGRAM_DISABLED"}, {10203, "AUTHOR_DISABLED"},
      {10204, "VERIFICATION_SWITCH_OFF"}, {10205, "PACKAGE_NOT_ENABLED"}, {10206, "INTERFACE_NOT_AUTHORIZED"},
      {10207, "INTERFACE_DISABLED"}, {10208, "CONNECT_NOT_ENABLED"}, {10301, "QUOTA_EXCEEDED"}, {10302, "RATE_LIMITED"},
      {20001, "CARD_INVALID"}, {20002, "CARD_EXPIRED"}, {20003, "CARD_BANNED"}, {20004, "DEVICE_LIMIT_REACHED"},
      {20005, "UNBIND_REFUSED"}, {20006, "CARD_NO_USES_LEFT"}, {20007, "SEATS_FULL"}, {20008, "TOPUP_REFUSED"},
      {20009, "CHECKOUT_DISABLED"}, {20010, "DEVICE_NOT_BOUND"}, {20011, "TRIAL_USED"}, {30001, "USERNAME_TAKEN"}, {30002, "BAD_CREDENTIALS"},
      {30003, "USER_BANNED"}, {30004, "MACHINE_MISMATCH"}, {30101, "SESSION_INVALID"}, {30102, "SESSION_TYPE_MISMATCH"},
      {40001, "SITE_NOT_AUTHORIZED"}, {40002, "BLACKLISTED"}, {40003, "IP_NOT_BOUND"}, {50000, "SYSTEM_ERROR"},
  };
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if (names[i].code == code) return names[i].name;
  return "UNKNOWN";
}
