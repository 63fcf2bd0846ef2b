/* The machine code against the shared vectors, and on Linux the real device id. */
#include <stdio.h>
#include <string.h>

#include "support.h"

static void vectors_match(const cJSON *vectors) {
  const cJSON *vector = NULL;
  int seen = 0;
  cJSON_ArrayForEach(vector, cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(vectors, "machine_code"), "cases")) {
    char code[CK_MACHINE_CODE_SIZE];
    CHECK(ck_machine_code_from(json_text(vector, "program_id"), json_text(vector, "raw_id"), code, sizeof code));
    CHECK_STR(code, json_text(vector, "code"));
    seen++;
  }
  CHECK(seen >= 4);
}

static void refusals(void) {
  char code[CK_MACHINE_CODE_SIZE], small[CK_MACHINE_CODE_SIZE - 1];
  CHECK(ck_machine_code_from("48213907", "abc", code, sizeof code));
  CHECK_INT(strlen(code), 32);
  CHECK(strspn(code, "0123456789abcdef") == 32);
  char other[CK_MACHINE_CODE_SIZE];
  CHECK(ck_machine_code_from("48213908", "abc", other, sizeof other));
  CHECK(strcmp(code, other) != 0);
  CHECK(!ck_machine_code_from("", "abc", code, sizeof code));
  CHECK_STR(code, "");
  CHECK(!ck_machine_code_from(NULL, "abc", code, sizeof code));
  CHECK(!ck_machine_code_from("48213907", " \r\n", code, sizeof code));
  CHECK(!ck_machine_code_from("48213907", "abc", small, sizeof small)); /* one byte short: refused, not overrun */
  CHECK_STR(small, "");
  CHECK(!ck_machine_code("", code, sizeof code));
  CHECK(!ck_machine_code("48213907", small, sizeof small));
}

/* The first non-empty Linux id file, trimmed, into id; 0 when there is none (a bare container). */
static int linux_id(char *id, size_t size) {
  const char *paths[] = {"/etc/machine-id", "/var/lib/dbus/machine-id"};
  for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++) {
    FILE *file = fopen(paths[i], "r");
    if (file == NULL) continue;
    size_t n = fread(id, 1, size - 1, file);
    fclose(file);
    id[n] = '\0';
    id[strcspn(id, " \t\r\n")] = '\0';
    if (id[0] != '\0') return 1;
  }
  return 0;
}

static void on_linux(void) {
#ifdef __linux__
  char id[256];
  if (!linux_id(id, sizeof id)) {
    printf("skipped: no machine-id file\n");
    return;
  }
  char first[CK_MACHINE_CODE_SIZE], second[CK_MACHINE_CODE_SIZE], want[CK_MACHINE_CODE_SIZE], other[CK_MACHINE_CODE_SIZE];
  CHECK(ck_machine_code("48213907", first, sizeof first));
  CHECK(ck_machine_code("48213907", second, sizeof second));
  CHECK_STR(second, first);
  CHECK(ck_machine_code_from("48213907", id, want, sizeof want));
  CHECK_STR(first, want);
  CHECK(ck_machine_code("10000001", other, sizeof other));
  CHECK(strcmp(other, first) != 0);
#else
  printf("skipped: not Linux\n");
#endif
}

int main(int argc, char **argv) {
  cJSON *vectors = load_vectors(argc > 1 ? argv[1] : NULL);
  vectors_match(vectors);
  refusals();
  on_linux();
  cJSON_Delete(vectors);
  return test_finish("test_machine_code");
}
