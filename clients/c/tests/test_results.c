/* Each family's success rule (docs/protocol.md §1): what a caller sees for each kind of answer. */
#include <stdio.h>
#include <string.h>

#include "support.h"

typedef struct rule_case {
  const char *family;
  int status;
  const char *body;
  int success_code;
  int success;
  long code;
} rule_case;

static const rule_case RULES[] = {
    {"connect", 200, "{\"status\":true,\"code\":1,\"reason\":\"Login successful\",\"data\":{}}", -1, 1, 1},
    {"connect", 200, "{\"status\":false,\"code\":-20002,\"reason\":\"The card key has expired\"}", -1, 0, 20002},
    {"connect", 200, "{\"code\":0,\"reason\":\"no status\"}", -1, 0, CK_UNEXPECTED_RESPONSE}, /* never code === 0 */
    {"connect", 200, "{\"status\":\"true\",\"code\":1}", -1, 0, CK_UNEXPECTED_RESPONSE},      /* a string is not true */
    {"standard", 200, "{\"code\":0,\"success\":true,\"msg\":\"ok\"}", -1, 1, 0},
    {"standard", 200, "{\"code\":1}", -1, 1, 1},
    {"standard", 200, "{\"code\":0,\"success\":false,\"msg\":\"?\"}", -1, 0, CK_UNEXPECTED_RESPONSE},
    {"standard", 401, "{\"code\":10101,\"success\":false,\"msg\":\"The signature is invalid\"}", -1, 0, 10101},
    {"standard", 200, "{\"code\":1,\"success\":true,\"msg\":\"Unbound\"}", 1, 1, 1},  /* unbind: code 1 */
    {"standard", 200, "{\"code\":0,\"success\":true,\"msg\":\"Unbound\"}", 1, 0, CK_UNEXPECTED_RESPONSE},
    {"standard", 200, "{\"code\":1,\"success\":false}", 1, 0, CK_UNEXPECTED_RESPONSE},
    {"standard", 200, "{\"code\":1,\"success\":true}", 0, 0, CK_UNEXPECTED_RESPONSE},  /* top-up, info: code 0 */
    {"legacy", 200, "{\"code\":1,\"msg\":\"Login successful\",\"data\":{}}", -1, 1, 1},
    {"legacy", 200, "{\"code\":0,\"msg\":\"?\"}", -1, 0, CK_UNEXPECTED_RESPONSE},
    {"legacy", 200, "{\"code\":20004,\"msg\":\"device limit\"}", -1, 0, 20004},
    {"legacy", 200, "<html>a login page</html>", -1, 0, CK_UNEXPECTED_RESPONSE},
    {"legacy", 302, "{\"code\":1}", -1, 0, CK_UNEXPECTED_RESPONSE}, /* a redirect is never an answer */
    {"standard", 200, "", -1, 0, CK_UNEXPECTED_RESPONSE},
    {"standard", 200, "[0]", -1, 0, CK_UNEXPECTED_RESPONSE},
    {"standard", 500, "{\"code\":50000,\"success\":false,\"msg\":\"fault\",\"error_id\":\"e-1\"}", -1, 0, 50000},
};

static void success_rules(void) {
  for (size_t i = 0; i < sizeof RULES / sizeof RULES[0]; i++) {
    const rule_case *rule = &RULES[i];
    ck_result result;
    int success = ck_judge(rule->family, rule->status, rule->body, strlen(rule->body), rule->success_code, &result);
    if (!CHECK_INT(success, rule->success) | !CHECK_INT(result.code, rule->code) | !CHECK_INT(result.success, rule->success))
      fprintf(stderr, "  rule %zu: %s %s\n", i, rule->family, rule->body);
    CHECK(result.message[0] != '\0' || rule->success);
    ck_result_free(&result);
  }
  ck_result result;
  ck_judge("standard", 500, RULES[19].body, strlen(RULES[19].body), -1, &result);
  CHECK_STR(result.error_id, "e-1");
  ck_result_free(&result);
  CHECK(!ck_judge("nonsense", 200, "{}", 2, -1, &result));
  CHECK_INT(result.code, CK_INVALID_ARGUMENT);
  CHECK(!ck_judge("legacy", 200, "{}", 2, 1, &result)); /* only standard routes fix a success code */
}

static void ended_by_and_features(void) {
  const char *ended = "{\"code\":30101,\"success\":false,\"msg\":\"The session is invalid; log in again\","
                      "\"data\":{\"ended_by\":\"forced_offline\",\"ended_at\":\"2026-01-02 03:04:05\"},\"request_id\":\"r4\"}";
  ck_result result;
  CHECK(!ck_judge("standard", 401, ended, strlen(ended), -1, &result));
  CHECK_INT(result.code, CK_SESSION_INVALID);
  CHECK_STR(result.ended_by, "forced_offline");
  CHECK_STR(result.ended_at, "2026-01-02 03:04:05");
  CHECK_STR(result.request_id, "r4");
  ck_result_free(&result);

  const char *plain = "{\"code\":30101,\"success\":false,\"msg\":\"invalid\"}";
  ck_judge("standard", 401, plain, strlen(plain), -1, &result);
  CHECK_STR(result.ended_by, ""); /* an older service says nothing: empty, never made up */
  ck_result_free(&result);

  const char *login = "{\"code\":0,\"success\":true,\"data\":{\"features\":[\"export\",\"pro.tools\",42,"
                      "\"a-name-far-longer-than-thirty-two-characters\"],\"devices\":[{\"machine_code\":\"PC-001\","
                      "\"last_login_at\":null}],\"unbind\":{\"enabled\":true}}}";
  CHECK(ck_judge("standard", 200, login, strlen(login), -1, &result));
  CHECK(result.features_present);
  CHECK_INT(result.feature_count, 2);
  CHECK_STR(result.features[0], "export");
  CHECK_STR(result.features[1], "pro.tools");
  char text[32];
  CHECK(ck_result_text(&result, "data.devices.0.machine_code", text, sizeof text));
  CHECK_STR(text, "PC-001");
  CHECK(!ck_result_text(&result, "data.devices.0.machine_code", text, 4)); /* too long for the buffer: nothing */
  CHECK_STR(text, "");
  CHECK(ck_result_is_null(&result, "data.devices.0.last_login_at"));
  CHECK_INT(ck_result_count(&result, "data.devices"), 1);
  int enabled = 0;
  CHECK(ck_result_bool(&result, "data.unbind.enabled", &enabled) && enabled);
  long long number = 0;
  CHECK(ck_result_int(&result, "code", &number) && number == 0);
  CHECK(!ck_result_int(&result, "data.devices.7.machine_code", &number));
  CHECK(!ck_result_text(&result, "data..x", text, sizeof text));
  ck_result_free(&result);

  const char *none = "{\"code\":0,\"success\":true,\"data\":{}}";
  ck_judge("standard", 200, none, strlen(none), -1, &result);
  CHECK(!result.features_present);
  CHECK(!result.trial); /* an older service says nothing: not a trial */
  ck_result_free(&result);

  const char *trial = "{\"code\":0,\"success\":true,\"data\":{\"trial\":true}}";
  CHECK(ck_judge("standard", 200, trial, strlen(trial), -1, &result));
  CHECK(result.trial);
  ck_result_free(&result);
  const char *not_trial = "{\"code\":0,\"success\":true,\"data\":{\"trial\":\"yes\"}}";
  ck_judge("standard", 200, not_trial, strlen(not_trial), -1, &result);
  CHECK(!result.trial);
  ck_result_free(&result);
  CHECK_STR(ck_code_name(CK_TRIAL_USED), "TRIAL_USED");
  CHECK_INT(CK_TRIAL_USED, 20011);
}

static void retry_after_and_names(void) {
  CHECK_STR(ck_code_name(20002), "CARD_EXPIRED");
  CHECK_STR(ck_code_name(CK_UNTRUSTED_RESPONSE), "UNTRUSTED_RESPONSE");
  CHECK_STR(ck_code_name(12345), "UNKNOWN");
}

int main(void) {
  success_rules();
  ended_by_and_features();
  retry_after_and_names();
  return test_finish("test_results");
}
