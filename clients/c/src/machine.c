/* The machine code (docs/protocol.md, "The machine code"): a stable id of this device, hashed
   with the program ID. The same definition in all five official clients, checked against
   sdk/vectors/signing-vectors.json (machine_code). */
#if defined(_WIN32) && !defined(_WIN32_WINNT)
#define _WIN32_WINNT 0x0601
#endif

#include <stdio.h>
#include <string.h>

#include <sodium.h>

#ifdef _WIN32
#include <windows.h>
#define ck_popen _popen
#define ck_pclose _pclose
#else
#define ck_popen popen
#define ck_pclose pclose
#endif

#include "internal.h"

/* Raw ids are short (a UUID is 36 characters); more than this is not an id a system keeps. */
#define CK_RAW_ID_MAX 256

static int is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

/* The raw id without its surrounding spaces, tabs, CR and LF: *start and the length. */
static size_t trimmed(const char *raw, const char **start) {
  size_t len = strlen(raw);
  while (len > 0 && is_space(raw[len - 1])) len--;
  while (len > 0 && is_space(*raw)) {
    raw++;
    len--;
  }
  *start = raw;
  return len;
}

static char lower(char c) { return (c >= 'A' && c <= 'Z') ? (char)(c + ('a' - 'A')) : c; }

int ck_machine_code_from(const char *program_id, const char *raw_id, char *out, size_t out_size) {
  if (out != NULL && out_size > 0) out[0] = '\0';
  if (out == NULL || out_size < CK_MACHINE_CODE_SIZE || program_id == NULL || program_id[0] == '\0' || raw_id == NULL) return 0;
  const char *id = NULL;
  size_t len = trimmed(raw_id, &id);
  if (len == 0) return 0;
  crypto_hash_sha256_state state;
  crypto_hash_sha256_init(&state);
  crypto_hash_sha256_update(&state, (const unsigned char *)program_id, strlen(program_id));
  crypto_hash_sha256_update(&state, (const unsigned char *)":", 1);
  unsigned char chunk[64];
  for (size_t done = 0; done < len;) {
    size_t n = len - done < sizeof chunk ? len - done : sizeof chunk;
    for (size_t i = 0; i < n; i++) chunk[i] = (unsigned char)lower(id[done + i]);
    crypto_hash_sha256_update(&state, chunk, n);
    done += n;
  }
  unsigned char digest[crypto_hash_sha256_BYTES];
  crypto_hash_sha256_final(&state, digest);
  char hex[2 * crypto_hash_sha256_BYTES + 1];
  sodium_bin2hex(hex, sizeof hex, digest, sizeof digest);
  memcpy(out, hex, CK_MACHINE_CODE_SIZE - 1);
  out[CK_MACHINE_CODE_SIZE - 1] = '\0';
  return 1;
}

/* A usable raw id: not empty, and not the zeros or FFs some firmware leaves in the SMBIOS UUID. */
static int usable(const char *raw) {
  const char *id = NULL;
  size_t len = trimmed(raw, &id);
  if (len == 0) return 0;
  int zeros = 1, effs = 1;
  for (size_t i = 0; i < len; i++) {
    char c = lower(id[i]);
    if (c != '0' && c != '-') zeros = 0;
    if (c != 'f' && c != '-') effs = 0;
  }
  return !zeros && !effs;
}

#if defined(_WIN32) || defined(__APPLE__)
/* The first line a command prints (or, with `key`, the quoted value after "key" = ), into out. */
static int command_output(const char *command, const char *key, char *out, size_t out_size) {
  out[0] = '\0';
  FILE *pipe = ck_popen(command, "r");
  if (pipe == NULL) return 0;
  char line[512];
  int found = 0;
  while (!found && fgets(line, sizeof line, pipe) != NULL) {
    const char *value = line;
    if (key != NULL) {
      const char *at = strstr(line, key);
      if (at == NULL || (at = strchr(at + strlen(key), '=')) == NULL || (at = strchr(at, '"')) == NULL) continue;
      value = at + 1;
      char *end = strchr(value, '"');
      if (end == NULL) continue;
      *end = '\0';
    }
    if (!usable(value) || strlen(value) >= out_size) continue;
    memcpy(out, value, strlen(value) + 1);
    found = 1;
  }
  ck_pclose(pipe);
  return found;
}
#endif

#ifdef _WIN32
static int windows_machine_guid(char *out, size_t out_size) {
  HKEY key;
  /* KEY_WOW64_64KEY: a 32-bit program would otherwise read WOW6432Node, which has no MachineGuid. */
  if (RegOpenKeyExA(HKEY_LOCAL_MACHINE, "SOFTWARE\\Microsoft\\Cryptography", 0, KEY_READ | KEY_WOW64_64KEY, &key) != ERROR_SUCCESS)
    return 0;
  DWORD type = 0, size = (DWORD)(out_size - 1);
  LONG status = RegQueryValueExA(key, "MachineGuid", NULL, &type, (LPBYTE)out, &size);
  RegCloseKey(key);
  if (status != ERROR_SUCCESS || type != REG_SZ) return 0;
  out[size < out_size ? size : out_size - 1] = '\0';
  return usable(out);
}
#else
static int file_id(const char *path, char *out, size_t out_size) {
  FILE *file = fopen(path, "r");
  if (file == NULL) return 0;
  size_t n = fread(out, 1, out_size - 1, file);
  fclose(file);
  out[n] = '\0';
  return usable(out);
}
#endif

int ck_machine_code(const char *program_id, char *out, size_t out_size) {
  if (out != NULL && out_size > 0) out[0] = '\0';
  if (out == NULL || out_size < CK_MACHINE_CODE_SIZE || program_id == NULL || program_id[0] == '\0') return 0;
  char raw[CK_RAW_ID_MAX];
  raw[0] = '\0';
  int found = 0;
#if defined(_WIN32)
  found = windows_machine_guid(raw, sizeof raw) ||
          command_output("powershell.exe -NoProfile -NonInteractive -Command "
                         "\"(Get-CimInstance -ClassName Win32_ComputerSystemProduct).UUID\"",
                         NULL, raw, sizeof raw);
#elif defined(__APPLE__)
  found = command_output("/usr/sbin/ioreg -rd1 -c IOPlatformExpertDevice", "\"IOPlatformUUID\"", raw, sizeof raw);
#else /* Linux, and other systems with systemd's or D-Bus's id */
  found = file_id("/etc/machine-id", raw, sizeof raw) || file_id("/var/lib/dbus/machine-id", raw, sizeof raw);
#endif
  int ok = found && ck_machine_code_from(program_id, raw, out, out_size);
  sodium_memzero(raw, sizeof raw);
  return ok;
}
