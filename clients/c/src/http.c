/* HTTP: one call, its bounded retries, and nothing that turns a failure into a success.
 *
 * Only a missing answer (or a gateway's non-JSON 502/503/504) of an idempotent call is tried
 * again, after an exponential backoff with jitter, each attempt built (signed) afresh. Business
 * answers are never retried. Redirects are never followed (the service sends none: a redirect
 * means a wrong address). Nothing is logged: bodies and headers carry secrets and tokens. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <curl/curl.h>
#include <sodium.h>

#include "internal.h"

void ck_answer_init(ck_http_answer *answer) {
  memset(answer, 0, sizeof *answer);
  ck_buf_init(&answer->body, CK_MAX_ANSWER_BYTES);
}

void ck_answer_reset(ck_http_answer *answer) {
  ck_buf body = answer->body;
  int too_large = answer->too_large;
  memset(answer, 0, sizeof *answer);
  answer->body = body;
  answer->too_large = too_large;
}

void ck_answer_free(ck_http_answer *answer) { ck_buf_free(&answer->body); }

void ck_answer_set_status(ck_http_answer *answer, int status) {
  if (answer != NULL) answer->status = status;
}

static void keep_first(char *dst, size_t size, int *seen, const char *value) {
  if (*seen) return;
  *seen = 1;
  if (!ck_copy_text(dst, size, value)) dst[0] = '\0'; /* an over-long value is no value */
}

void ck_answer_add_header(ck_http_answer *answer, const char *name, const char *value) {
  if (answer == NULL || name == NULL || value == NULL) return;
  int seen = 0;
  if (strcasecmp(name, "content-type") == 0) {
    seen = answer->content_type[0] != '\0';
    keep_first(answer->content_type, sizeof answer->content_type, &seen, value);
  } else if (strcasecmp(name, "x-request-id") == 0) {
    seen = answer->request_id[0] != '\0';
    keep_first(answer->request_id, sizeof answer->request_id, &seen, value);
  } else if (strcasecmp(name, "retry-after") == 0) {
    seen = answer->retry_after[0] != '\0';
    keep_first(answer->retry_after, sizeof answer->retry_after, &seen, value);
  } else if (strcasecmp(name, "x-svc-response-timestamp") == 0) {
    keep_first(answer->sig_timestamp, sizeof answer->sig_timestamp, &answer->has_sig_timestamp, value);
  } else if (strcasecmp(name, "x-svc-response-key") == 0) {
    keep_first(answer->sig_key, sizeof answer->sig_key, &answer->has_sig_key, value);
  } else if (strcasecmp(name, "x-svc-response-signature") == 0) {
    keep_first(answer->sig_signature, sizeof answer->sig_signature, &answer->has_sig_signature, value);
  } else if (strcasecmp(name, "x-svc-response-version") == 0) {
    keep_first(answer->sig_version, sizeof answer->sig_version, &answer->has_sig_version, value);
  }
}

int ck_answer_append_body(ck_http_answer *answer, const void *bytes, size_t len) {
  if (answer == NULL) return 0;
  if (!ck_buf_append(&answer->body, bytes, len)) {
    answer->too_large = 1;
    return 0;
  }
  return 1;
}

/* ---- libcurl ---- */

static size_t on_body(char *data, size_t size, size_t count, void *user) {
  size_t len = size * count;
  return ck_answer_append_body(user, data, len) ? len : 0; /* 0 aborts an answer past the limit */
}

static size_t on_header(char *data, size_t size, size_t count, void *user) {
  size_t len = size * count;
  ck_http_answer *answer = user;
  char line[CK_HEADER_MAX + 64];
  if (len >= 5 && memcmp(data, "HTTP/", 5) == 0) {
    ck_answer_reset(answer); /* a new header block: 100 Continue came first */
    return len;
  }
  if (len >= sizeof line) return len; /* no header the client reads is that long */
  memcpy(line, data, len);
  line[len] = '\0';
  char *colon = strchr(line, ':');
  if (colon == NULL) return len;
  *colon = '\0';
  char *value = colon + 1;
  while (*value == ' ' || *value == '\t') value++;
  size_t value_len = strlen(value);
  while (value_len > 0 && isspace((unsigned char)value[value_len - 1])) value[--value_len] = '\0';
  ck_answer_add_header(answer, line, value);
  return len;
}

int ck_curl_exchange(const ck_http_request *request, long connect_timeout_ms, ck_http_answer *answer) {
  CURL *curl = curl_easy_init();
  if (curl == NULL) return 1;
  struct curl_slist *headers = NULL, *grown = NULL;
  int failed = 0;
  for (size_t i = 0; i < request->header_count && !failed; i++) {
    grown = curl_slist_append(headers, request->headers[i]);
    if (grown == NULL) failed = 1;
    else headers = grown;
  }
  /* No "Expect: 100-continue" round trip: the bodies are small. */
  if (!failed && (grown = curl_slist_append(headers, "Expect:")) != NULL) headers = grown;
  else failed = 1;
  if (!failed) {
    curl_easy_setopt(curl, CURLOPT_URL, request->url);
    curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, request->method);
    curl_easy_setopt(curl, CURLOPT_POST, 1L);
    curl_easy_setopt(curl, CURLOPT_POSTFIELDS, (const char *)request->body);
    curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)request->body_len);
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(curl, CURLOPT_USERAGENT, "cardkey-client-c/" CK_VERSION);
    curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 0L);
    curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, request->timeout_ms);
    curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, connect_timeout_ms);
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L); /* threads: no SIGALRM for DNS timeouts */
#if LIBCURL_VERSION_NUM >= 0x075500
    curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
#endif
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, answer);
    curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(curl, CURLOPT_HEADERDATA, answer);
    CURLcode code = curl_easy_perform(curl);
    long status = 0;
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
    answer->status = (int)status;
    failed = code != CURLE_OK && !(code == CURLE_WRITE_ERROR && answer->too_large);
  }
  curl_slist_free_all(headers);
  curl_easy_cleanup(curl);
  return failed;
}

/* ---- one call ---- */

int ck_attempt_header(ck_attempt *attempt, const char *name, const char *value) {
  if (attempt->header_count >= CK_MAX_HEADERS) return 0;
  int written = snprintf(attempt->headers[attempt->header_count], CK_HEADER_MAX, "%s: %s", name, value);
  if (written < 0 || written >= CK_HEADER_MAX) return 0;
  attempt->header_count++;
  return 1;
}

static void attempt_free(ck_attempt *attempt) {
  ck_buf_free(&attempt->body);
  sodium_memzero(attempt->headers, sizeof attempt->headers); /* Authorization: Bearer ... */
  attempt->header_count = 0;
}

static long backoff_ms(long base, int attempt) {
  long exponential = base;
  for (int i = 1; i < attempt && exponential < base * 8; i++) exponential *= 2;
  if (exponential > base * 8) exponential = base * 8;
  long half = exponential / 2;
  return half + (half > 0 ? (long)randombytes_uniform((uint32_t)half + 1) : 0);
}

static int gateway_failure(const ck_http_answer *answer) {
  int gateway = answer->status == 502 || answer->status == 503 || answer->status == 504;
  return gateway && strstr(answer->content_type, "json") == NULL;
}

int ck_perform(ck_client *client, const ck_call *call, ck_result *result) {
  char url[2300];
  int url_len = snprintf(url, sizeof url, "%s%s", client->base_url, call->path);
  if (url_len < 0 || (size_t)url_len >= sizeof url) return ck_fail(result, CK_INVALID_ARGUMENT, 0, "The address is too long");
  int attempts = call->idempotent ? client->retries + 1 : 1;
  const char *last_error = "no attempt made";
  for (int n = 0; n < attempts; n++) {
    if (n > 0) ck_sleep_ms(backoff_ms(client->retry_delay_ms, n));
    ck_attempt attempt;
    memset(&attempt, 0, sizeof attempt);
    ck_buf_init(&attempt.body, CK_MAX_REQUEST_BYTES);
    if (!call->build(client, call->context, &attempt) || ck_buf_cstr(&attempt.body) == NULL) {
      attempt_free(&attempt);
      return ck_fail(result, CK_INVALID_ARGUMENT, 0, "The request could not be built (an argument is too long)");
    }
    const char *lines[CK_MAX_HEADERS];
    for (size_t i = 0; i < attempt.header_count; i++) lines[i] = attempt.headers[i];
    ck_http_request request = {"POST", url, call->path, lines, attempt.header_count, attempt.body.data, attempt.body.len,
                               client->timeout_ms};
    ck_http_answer answer;
    ck_answer_init(&answer);
    int network_failure = client->exchange ? client->exchange(client->exchange_user, &request, &answer)
                                           : ck_curl_exchange(&request, client->connect_timeout_ms, &answer);
    if (network_failure || answer.status <= 0) {
      last_error = answer.too_large ? NULL : "no answer (refused, reset, DNS or timeout)";
      ck_answer_free(&answer);
      attempt_free(&attempt);
      continue;
    }
    if (answer.too_large) {
      int status = answer.status;
      ck_answer_free(&answer);
      attempt_free(&attempt);
      return ck_fail(result, CK_UNEXPECTED_RESPONSE, status, "Unexpected answer: larger than any answer of the service");
    }
    if (gateway_failure(&answer)) {
      last_error = "a gateway answered 502/503/504";
      ck_answer_free(&answer);
      attempt_free(&attempt);
      continue;
    }
    int trusted = 1;
    if (client->pinned) {
      ck_pinned_key keys[CK_MAX_PINNED_KEYS];
      for (size_t i = 0; i < client->key_count; i++) keys[i] = (ck_pinned_key){client->kids[i], client->public_keys[i]};
      const char *distrust = ck_answer_distrust(
          "POST", call->path, attempt.nonce, attempt.body.data, attempt.body.len, answer.status, answer.body.data,
          answer.body.len, answer.has_sig_timestamp ? answer.sig_timestamp : NULL,
          answer.has_sig_key ? answer.sig_key : NULL, answer.has_sig_signature ? answer.sig_signature : NULL,
          answer.has_sig_version ? answer.sig_version : NULL, keys, client->key_count, client->max_skew_seconds, ck_now());
      if (distrust != NULL) {
        char message[CK_MESSAGE_MAX];
        snprintf(message, sizeof message, "Untrusted answer: %s", distrust);
        ck_fail(result, CK_UNTRUSTED_RESPONSE, answer.status, message);
        trusted = 0;
      }
    }
    if (trusted) ck_judge_answer(call->family, &answer, client, call->success_code, result);
    ck_answer_free(&answer);
    attempt_free(&attempt);
    return result->success;
  }
  char message[CK_MESSAGE_MAX];
  snprintf(message, sizeof message, "The service could not be reached: %s", last_error ? last_error : "no answer");
  return ck_fail(result, CK_NETWORK_ERROR, 0, message);
}
