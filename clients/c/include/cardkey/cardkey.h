/*
 * cardkey.h — the official C client of the card-key login service (C99, usable from C++).
 *
 * One explicit handle (ck_client) holds everything: the library keeps no global state of its own.
 * Every call fills a ck_result and returns its `success`; nothing the service or the network does
 * is reported any other way. A failure always carries a positive catalog code (docs/errors.md) or
 * a client code (CK_NETWORK_ERROR...), never 0 or 1, so `if (ck_card_login(...))` is the one test.
 * Release every result with ck_result_free (it owns the parsed answer).
 */
#ifndef CARDKEY_H
#define CARDKEY_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CK_VERSION "0.1.0"

/* What the shared library exports (everything else stays inside it). Windows (MinGW) has no ELF
   visibility: its DLL exports every global symbol, and GCC would warn about the attribute. */
#if defined(__GNUC__) && !defined(CK_STATIC_ONLY) && !defined(_WIN32)
#define CK_API __attribute__((visibility("default")))
#else
#define CK_API
#endif

/* Bounds of what a result keeps in its fixed fields (longer values are cut, never overrun). */
#define CK_MESSAGE_MAX 512
#define CK_ID_MAX 80
#define CK_SHORT_MAX 48
#define CK_TOKEN_MAX 128
#define CK_FIELD_MAX 513 /* card keys, device codes: 1–128 characters (UTF-8: at most 512 bytes) + NUL */
#define CK_MAX_FEATURES 32
#define CK_FEATURE_MAX 33 /* a feature name: 1–32 of [a-z0-9_.-] + NUL */

/* Codes the client produces itself; the service never sends them (docs/errors.md). */
enum ck_client_code {
  CK_NETWORK_ERROR = 90001,       /* no answer after the retries (refused, reset, DNS, timeout) */
  CK_UNEXPECTED_RESPONSE = 90002, /* not the family's JSON: HTML, a redirect, empty, too large */
  CK_NO_SESSION = 90003,          /* a heartbeat without a session of that type; nothing sent */
  CK_UNTRUSTED_RESPONSE = 90004,  /* not the service's signed answer to this request, or a success
                                     naming another device, card or session owner than sent */
  CK_INVALID_ARGUMENT = 90005,    /* C client only: a NULL, empty or over-long argument; nothing sent */
  CK_OUT_OF_MEMORY = 90006        /* C client only: an allocation failed; nothing trusted */
};

/* Catalog codes a client branches on most (all of them: docs/errors.md). */
enum ck_error_code {
  CK_BAD_REQUEST = 10001,
  CK_HTTPS_REQUIRED = 10010,
  CK_SIGNATURE_INVALID = 10101,
  CK_TIMESTAMP_OUT_OF_WINDOW = 10102,
  CK_NONCE_REPLAYED = 10103,
  CK_PROGRAM_NOT_FOUND = 10201,
  CK_QUOTA_EXCEEDED = 10301,
  CK_RATE_LIMITED = 10302,
  CK_CARD_INVALID = 20001,
  CK_CARD_EXPIRED = 20002,
  CK_CARD_BANNED = 20003,
  CK_DEVICE_LIMIT_REACHED = 20004,
  CK_UNBIND_REFUSED = 20005,
  CK_CARD_NO_USES_LEFT = 20006,
  CK_SEATS_FULL = 20007,
  CK_TOPUP_REFUSED = 20008,
  CK_CHECKOUT_DISABLED = 20009,
  CK_DEVICE_NOT_BOUND = 20010,
  CK_TRIAL_USED = 20011,
  CK_USERNAME_TAKEN = 30001,
  CK_BAD_CREDENTIALS = 30002,
  CK_USER_BANNED = 30003,
  CK_MACHINE_MISMATCH = 30004,
  CK_SESSION_INVALID = 30101,
  CK_SESSION_TYPE_MISMATCH = 30102,
  CK_SYSTEM_ERROR = 50000
};

/* One answer, judged by its family's rule after every trust check. */
typedef struct ck_result {
  int success;              /* 1 only for a trusted answer passing the family's success rule */
  long code;                /* failure: catalog code (positive) or ck_client_code; success: 0 or 1 as sent */
  int http_status;          /* 0 when no answer came back */
  long retry_after_seconds; /* Retry-After (RATE_LIMITED); -1 when absent */
  char message[CK_MESSAGE_MAX]; /* Connect `reason`, standard/legacy `msg`: may be shown to the user */
  char request_id[CK_ID_MAX];   /* keep it for the administrator */
  char error_id[CK_ID_MAX];     /* SYSTEM_ERROR only */
  /* decisions §18: a SESSION_INVALID heartbeat may say why the session ended; "" when not sent. */
  char ended_by[CK_SHORT_MAX];
  char ended_at[CK_SHORT_MAX];
  /* `data.features` of a card answer (decisions §19); features_present is 0 when not sent. */
  int features_present;
  size_t feature_count;
  char features[CK_MAX_FEATURES][CK_FEATURE_MAX];
  int trial; /* 1 when a card answer's data says `trial: true` (a device's trial card, decisions §21) */
  void *answer; /* internal: the parsed answer, read with ck_result_text/int/bool/count */
} ck_result;

/* A pinned response-signing key: `GET /admin/v1/projects/{id}/signing-keys` → kid, public_key. */
typedef struct ck_pinned_key {
  const char *kid;        /* 16 hex characters */
  const char *public_key; /* base64url (no padding) of the raw 32-byte Ed25519 key */
} ck_pinned_key;

/* A renamed Connect field of a customized program: the default name and the program's name. */
typedef struct ck_field_name {
  const char *standard;
  const char *custom;
} ck_field_name;

typedef struct ck_http_request ck_http_request;
typedef struct ck_http_answer ck_http_answer;
/* Replaces libcurl for one attempt (tests, or a program with an HTTP stack of its own). Fill the
   answer with ck_answer_*; return 0 when an answer came back, non-zero for a network failure. */
typedef int (*ck_exchange_fn)(void *user, const ck_http_request *request, ck_http_answer *answer);

typedef struct ck_config {
  const char *base_url;      /* https://licence.example.com (no route path) */
  const char *program_id;    /* the public 8-digit program ID, never the internal key */
  const char *api_secret;    /* signs V3 and SDK requests */
  const char *legacy_secret; /* only for the legacy calls (MD5); may be NULL */
  long timeout_ms;           /* one attempt, connection included; default 10000 */
  long connect_timeout_ms;   /* default 5000 */
  int retries;               /* further attempts after a network failure of an idempotent call; default 2, at most 5 */
  long retry_delay_ms;       /* first backoff, doubled per attempt with jitter; default 250 */
  const ck_pinned_key *response_keys; /* pinned keys: every answer must carry a valid v2 signature */
  size_t response_key_count;
  long response_max_skew_seconds; /* default 300 */
  const char *transport_mode; /* the project's transport encryption: NULL/"none", "rc4", "aes", "aes-gcm" */
  const char *transport_key;  /* the project's transport_key (its UTF-8 text) */
  const ck_field_name *connect_field_names; /* a customized Connect program's names */
  size_t connect_field_name_count;
  ck_exchange_fn exchange; /* NULL: libcurl */
  void *exchange_user;
} ck_config;

typedef enum ck_session_type { CK_SESSION_CARD = 1, CK_SESSION_USER = 2 } ck_session_type;

/* The session an SDK login opened; keep it across restarts with ck_restore_session. */
typedef struct ck_session {
  ck_session_type type;
  char token[CK_TOKEN_MAX];
  char machine_id[CK_FIELD_MAX];
  char expires_at[CK_SHORT_MAX];
  long heartbeat_interval_seconds; /* 0 when unknown */
  long long owner_id;              /* the card id (card) or user id (user) of the login; 0 = unknown, not checked */
} ck_session;

/* The offline check of a kept licence (§6.3). */
typedef struct ck_licence_check {
  int valid;
  char reason[CK_MESSAGE_MAX]; /* why not, when not valid */
  char program_id[CK_SHORT_MAX];
  char machine_id[CK_FIELD_MAX];
  long long card_id;
  long long issued_at;
  long long valid_until;     /* Unix seconds */
  long long card_expires_at; /* 0 for a permanent card */
  int features_present;
  size_t feature_count;
  char features[CK_MAX_FEATURES][CK_FEATURE_MAX];
  int trial; /* 1 for a trial card's licence (decisions §21) */
} ck_licence_check;

typedef struct ck_client ck_client;

/* Defaults for every option; set the required ones (base_url, program_id, api_secret) after it. */
CK_API void ck_config_init(ck_config *config);
/* Copies the configuration; NULL with the reason in `error` for a configuration that cannot work. */
CK_API ck_client *ck_client_new(const ck_config *config, char *error, size_t error_size);
/* Stops the heartbeat loop and wipes the secrets. NULL is allowed. */
CK_API void ck_client_free(ck_client *client);

/* ---- SDK v1 (JSON, HMAC-signed; success `code` 0) ---- */
CK_API int ck_card_login(ck_client *client, const char *card_key, const char *machine_id, ck_result *result);
CK_API int ck_card_heartbeat(ck_client *client, ck_result *result);
CK_API int ck_user_register(ck_client *client, const char *username, const char *password, const char *machine_id, ck_result *result);
CK_API int ck_user_login(ck_client *client, const char *username, const char *password, const char *machine_id, ck_result *result);
CK_API int ck_user_heartbeat(ck_client *client, ck_result *result);
CK_API int ck_check_version(ck_client *client, const char *version, ck_result *result);
CK_API int ck_card_info(ck_client *client, const char *card_key, ck_result *result);
CK_API int ck_card_topup(ck_client *client, const char *card_key, const char *topup_key, ck_result *result);
/* Success is `code: 1` on this route only. */
CK_API int ck_card_unbind(ck_client *client, const char *card_key, const char *machine_id, ck_result *result);
/* This device's one trial card (decisions §21), bound to it: log in with data.code; CK_TRIAL_USED once spent. */
CK_API int ck_card_trial(ck_client *client, const char *machine_id, ck_result *result);
/* ttl_seconds 0: the program's offline_grace_seconds. */
CK_API int ck_card_checkout(ck_client *client, const char *card_key, const char *machine_id, long ttl_seconds, ck_result *result);

/* ---- HTTP V3 (form, HMAC-signed; a compatible token, no session) ---- */
CK_API int ck_v3_card_login(ck_client *client, const char *card_key, const char *machine_id, ck_result *result);

/* ---- Connect (form, unsigned; success `status === true`). nonce: NULL = a fresh one per
   attempt; "" = none; yours = sent as is and never retried (a repeat within 60 s is 409). ---- */
CK_API int ck_connect_login(ck_client *client, const char *card_key, const char *serial, const char *nonce, ck_result *result);

/* ---- Legacy V1 (MD5-signed form; success `code === 1`); through /api/app, sealed, when the
   configuration names a transport_mode. Need legacy_secret. ---- */
CK_API int ck_legacy_card_login(ck_client *client, const char *card_key, const char *machine_id, ck_result *result);
CK_API int ck_legacy_unbind(ck_client *client, const char *card_key, const char *machine_id, ck_result *result);

/* ---- Offline licence: checks a kept licence without a network (needs pinned keys). Use it when a
   login answers CK_NETWORK_ERROR, never after a refusal. now 0: the current time. ---- */
CK_API int ck_check_licence(const ck_client *client, const char *licence, const char *card_key, const char *machine_id,
                     long long now, ck_licence_check *out);

/* ---- The session ---- */
CK_API int ck_session_get(ck_client *client, ck_session *out); /* 1 when a session is held */
CK_API int ck_session_restore(ck_client *client, const ck_session *session); /* 1 when taken up */
CK_API void ck_session_clear(ck_client *client); /* also stops the heartbeat loop */

/* ---- The heartbeat loop: beats the held session on a thread of its own ---- */
typedef void (*ck_heartbeat_callback)(const ck_result *result, void *user);
typedef struct ck_heartbeat_options {
  long interval_ms;                        /* 0: the login's heartbeat_interval_seconds, else 60 s */
  ck_heartbeat_callback on_beat;           /* a renewed session */
  ck_heartbeat_callback on_error;          /* network, quota, MACHINE_MISMATCH...: the loop goes on */
  ck_heartbeat_callback on_session_ended;  /* SESSION_INVALID / SESSION_TYPE_MISMATCH: once, then it stops */
  void *user;
} ck_heartbeat_options;
/* One loop per client (a new one replaces the old). 1 when started; 0 without a session. */
CK_API int ck_heartbeat_start(ck_client *client, const ck_heartbeat_options *options);
/* Stops the loop and waits for its thread (a beat on the wire finishes; nothing is reported after). */
CK_API void ck_heartbeat_stop(ck_client *client);
/* Waits until the loop stops (the session ended, or a stop) and on_session_ended has returned; 1 when stopped, 0 on timeout. */
CK_API int ck_heartbeat_wait(ck_client *client, long timeout_ms);
CK_API int ck_heartbeat_running(ck_client *client);

/* ---- Reading a result ---- */
/* Paths are dotted names from the answer's root, array indices as numbers: "data.devices.0.machine_code".
   Standard card logins also carry the top-level token and statecode in data; a sealed legacy
   answer's data is the opened one. */
CK_API int ck_result_text(const ck_result *result, const char *path, char *out, size_t out_size); /* 1 found and fits; 0 absent, not a string or too long ("" then) */
CK_API int ck_result_int(const ck_result *result, const char *path, long long *out); /* 1 an integer */
CK_API int ck_result_bool(const ck_result *result, const char *path, int *out);      /* 1 a boolean */
CK_API int ck_result_is_null(const ck_result *result, const char *path);             /* 1 present and null */
CK_API size_t ck_result_count(const ck_result *result, const char *path);            /* items of an array or object */
CK_API void ck_result_free(ck_result *result);

/* The name of a code ("CARD_EXPIRED", "NETWORK_ERROR"); "UNKNOWN" for others. */
CK_API const char *ck_code_name(long code);

/* ---- The machine code (docs/protocol.md, "The machine code") ---- */
#define CK_MACHINE_CODE_SIZE 33 /* 32 lowercase hex characters + NUL */
/* This device's machine code for program_id, what to pass as machine_id: a stable id the system
   keeps (Windows MachineGuid, then the SMBIOS UUID; Linux /etc/machine-id, then
   /var/lib/dbus/machine-id; macOS IOPlatformUUID) hashed with the program ID, so it survives
   reboots and differs per program. No network, no administrator rights. out: at least
   CK_MACHINE_CODE_SIZE bytes. 1 on success; 0 ("" in out) when program_id is empty, out is too
   small or the device has none of those ids (a container without /etc/machine-id). */
CK_API int ck_machine_code(const char *program_id, char *out, size_t out_size);
/* The same code from a raw id you read yourself (pure): raw_id trimmed (spaces, tabs, CR, LF) and
   ASCII-lowercased, then the first 32 characters of the lowercase hex SHA-256 of
   program_id ":" raw_id, as in sdk/vectors/signing-vectors.json (machine_code). */
CK_API int ck_machine_code_from(const char *program_id, const char *raw_id, char *out, size_t out_size);

#ifdef __cplusplus
}
#endif
#endif
