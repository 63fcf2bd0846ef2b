// The header seen from C++: it compiles through extern "C" and links against the C library.
#include <cstdio>
#include <string>

#include "cardkey/cardkey.h"
#include "cardkey/cardkey_helpers.h"

int main() {
  std::string body = "{\"status\":true,\"code\":1,\"reason\":\"ok\",\"data\":{}}";
  ck_result result;
  bool ok = ck_judge("connect", 200, body.c_str(), body.size(), -1, &result) == 1 && result.code == 1;
  ck_result_free(&result);
  std::printf("C++ view of cardkey.h: %s\n", ok ? "ok" : "FAILED");
  return ok ? 0 : 1;
}
