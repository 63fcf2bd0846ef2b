/* offline_check: what a program does when the service cannot be reached — check a kept offline
 * licence with the pinned key — and how a signed answer is checked, all without a network. The
 * values are the worked examples of docs/protocol.md §6 (the RFC 8032 test key). CI runs it under
 * valgrind. Build: cmake (target offline_check), or
 *   cc offline_check.c -I../include -L../build -lcardkey -o offline_check */
#include <stdio.h>
#include <string.h>

#include "cardkey/cardkey.h"
#include "cardkey/cardkey_helpers.h"

static const char *LICENCE =
    "eyJ2IjoxLCJwcm9ncmFtX2lkIjoiNDgyMTM5MDciLCJjYXJkX2lkIjo3LCJjYXJkX2NvZGVfc2hhMjU2IjoiNzA5YjllN2M0ZWRlZDg5ZTMyY2ViZjVh"
    "YzhhZjAzN2EwZTVkNTkyYjJjMzhlNDVjMTJlZDdjZjc5OGFkN2NjYSIsIm1hY2hpbmVfaWQiOiJQQy0wMDEiLCJraWQiOiIyMWZlMzFkZmExNTRhMjYx"
    "IiwiaXNzdWVkX2F0IjoxNzYzODAwMDAwLCJ2YWxpZF91bnRpbCI6MTc2NDQwNDgwMCwiY2FyZF9leHBpcmVzX2F0IjoxNzY2MzkyMDAwfQ."
    "lY8uSfqVXOf-FGrT_LahRa-q_qXkoFGDToK9u3tdygyOve3yxHwPggmy8aYXYetvji46-PNREZDuDdEp3StoCg";
static const char *REQUEST = "{\"app\":\"48213907\",\"card_key\":\"CK-7QH2-9XKD-M3PA\",\"machine_id\":\"PC-001\"}";
static const char *ANSWER =
    "{\"code\":0,\"success\":true,\"msg\":\"Login successful\",\"token\":\"t0k\",\"statecode\":\"active\",\"data\":{\"id\":7,"
    "\"code\":\"CK-7QH2-9XKD-M3PA\",\"machine_code\":\"PC-001\"},\"request_id\":\"r1\"}";
static const char *SIGNATURE = "iFYUlJh-ItsizXcYHK120lj8kuH76GwTnjAnZXzErWpzyz5qrbp0ZwtOxGiT80RYVW4zcY9TVfrTWdutjCWfBQ";
static const long long SIGNED_AT = 1763800000; /* the example's clock */

int main(void) {
  const ck_pinned_key keys[] = {{"21fe31dfa154a261", "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"}};
  ck_config config;
  ck_config_init(&config);
  config.base_url = "https://licence.example.com";
  config.program_id = "48213907";
  config.api_secret = "sk_test_4f3c2a1b9e8d7c6b";
  config.response_keys = keys;
  config.response_key_count = 1;
  char error[128];
  ck_client *client = ck_client_new(&config, error, sizeof error);
  if (client == NULL) {
    fprintf(stderr, "configuration refused: %s\n", error);
    return 1;
  }
  int failures = 0;

  ck_licence_check check;
  if (ck_check_licence(client, LICENCE, "CK-7QH2-9XKD-M3PA", "PC-001", SIGNED_AT, &check))
    printf("licence valid for card %lld on %s until %lld\n", check.card_id, check.machine_id, check.valid_until);
  else failures += printf("licence refused: %s\n", check.reason) > 0;
  if (!ck_check_licence(client, LICENCE, "CK-7QH2-9XKD-M3PA", "ANOTHER-PC", SIGNED_AT, &check))
    printf("on another machine: %s\n", check.reason);
  else failures++;

  const char *distrust = ck_answer_distrust("POST", "/api/v1/cards/login", "n0nce-0001", (const unsigned char *)REQUEST,
                                            strlen(REQUEST), 200, (const unsigned char *)ANSWER, strlen(ANSWER),
                                            "1763800000", keys[0].kid, SIGNATURE, "2", keys, 1, 300, SIGNED_AT);
  if (distrust == NULL) printf("signed answer verified\n");
  else failures += printf("signed answer refused: %s\n", distrust) > 0;
  const char *relayed = "{\"app\":\"48213907\",\"card_key\":\"ANOTHER-CARD\",\"machine_id\":\"PC-001\"}";
  distrust = ck_answer_distrust("POST", "/api/v1/cards/login", "n0nce-0001", (const unsigned char *)relayed,
                                strlen(relayed), 200, (const unsigned char *)ANSWER, strlen(ANSWER), "1763800000",
                                keys[0].kid, SIGNATURE, "2", keys, 1, 300, SIGNED_AT);
  if (distrust != NULL) printf("the same answer for another request: %s\n", distrust);
  else failures++;

  ck_result result;
  if (ck_judge("standard", 200, ANSWER, strlen(ANSWER), -1, &result)) {
    char token[64];
    ck_result_text(&result, "token", token, sizeof token);
    printf("success rule: code %ld, token %s\n", result.code, token);
  } else {
    failures++;
  }
  ck_result_free(&result);
  ck_client_free(client);
  printf("offline check: %s\n", failures ? "FAILED" : "ok");
  return failures ? 1 : 0;
}
