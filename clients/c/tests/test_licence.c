/* Offline licences (§6.3) against the shared licence vector. */
#include <stdio.h>
#include <string.h>

#include "support.h"

int main(int argc, char **argv) {
  cJSON *vectors = load_vectors(argc > 1 ? argv[1] : NULL);
  const cJSON *vector = cJSON_GetArrayItem(
      cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(vectors, "ed25519"), "licences"), 0);
  const cJSON *payload = cJSON_GetObjectItemCaseSensitive(vector, "payload");
  const char *licence = json_text(vector, "licence");
  const char *card = json_text(vector, "card_key");
  long long issued = (long long)cJSON_GetObjectItemCaseSensitive(payload, "issued_at")->valuedouble;
  long long until = (long long)cJSON_GetObjectItemCaseSensitive(payload, "valid_until")->valuedouble;
  ck_licence_check check;

  CHECK(ck_verify_licence(licence, TEST_KEYS, 1, "48213907", "PC-001", card, issued, &check));
  CHECK(check.valid);
  CHECK_STR(check.program_id, "48213907");
  CHECK_STR(check.machine_id, "PC-001");
  CHECK_INT(check.card_id, 7);
  CHECK_INT(check.valid_until, until);
  CHECK_INT(check.card_expires_at, 1766392000);
  CHECK(!check.features_present);
  CHECK(ck_verify_licence(licence, TEST_KEYS, 1, "48213907", "PC-001", NULL, until, &check)); /* the last valid second */

  CHECK(!ck_verify_licence(licence, TEST_KEYS, 1, "48213907", "PC-001", card, until + 1, &check));
  CHECK_STR(check.reason, "expired");
  CHECK(!ck_verify_licence(licence, TEST_KEYS, 1, "48213907", "ANOTHER-PC", card, issued, &check));
  CHECK_STR(check.reason, "for another machine");
  CHECK(!ck_verify_licence(licence, TEST_KEYS, 1, "11111111", "PC-001", card, issued, &check));
  CHECK_STR(check.reason, "for another program");
  CHECK(!ck_verify_licence(licence, TEST_KEYS, 1, "48213907", "PC-001", "CK-ANOTHER-CARD", issued, &check));
  CHECK_STR(check.reason, "for another card");
  ck_pinned_key other = {"0123456789abcdef", TEST_PUBLIC_KEY};
  CHECK(!ck_verify_licence(licence, &other, 1, "48213907", "PC-001", card, issued, &check));
  CHECK_STR(check.reason, "signed with an unknown key");

  char tampered[4096];
  snprintf(tampered, sizeof tampered, "%s", licence);
  tampered[10] = tampered[10] == 'A' ? 'B' : 'A'; /* inside the payload */
  CHECK(!ck_verify_licence(tampered, TEST_KEYS, 1, "48213907", "PC-001", card, issued, &check));
  snprintf(tampered, sizeof tampered, "%s", licence);
  tampered[strlen(tampered) - 3] = tampered[strlen(tampered) - 3] == 'A' ? 'B' : 'A'; /* inside the signature */
  CHECK(!ck_verify_licence(tampered, TEST_KEYS, 1, "48213907", "PC-001", card, issued, &check));
  CHECK_STR(check.reason, "the signature does not verify");
  const char *garbage[] = {"", ".", "abc", "abc.", ".abc", "a.b.c", "!!!.???"};
  for (size_t i = 0; i < sizeof garbage / sizeof garbage[0]; i++) {
    CHECK(!ck_verify_licence(garbage[i], TEST_KEYS, 1, "48213907", "PC-001", card, issued, &check));
    CHECK(!check.valid);
  }
  cJSON_Delete(vectors);
  return test_finish("test_licence");
}
