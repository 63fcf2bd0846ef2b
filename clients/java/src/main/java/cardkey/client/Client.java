package cardkey.client;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.security.PublicKey;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The official Java client of the card-key login service: one program's client, safe for use from
 * several threads. It signs requests as the service verifies them, applies each family's success
 * rule, checks signed answers against pinned keys, holds the session of an SDK card or user login
 * and keeps it alive with a {@link HeartbeatLoop}.
 *
 * <p>No method throws for what the service or the network does: each answers a {@link Result}.
 * Only programming errors throw (a missing option, {@link #legacy()} without a legacy secret,
 * {@link #startHeartbeat} before a login). One client holds at most one session: a new SDK login
 * replaces it. Close the client to stop its heartbeat loop.
 */
public final class Client implements AutoCloseable {
  static final String FORM = "application/x-www-form-urlencoded";
  static final String JSON = "application/json";
  /** Sent as User-Agent. */
  public static final String VERSION = "0.1.0";

  private final String baseUrl;
  private final String programId;
  private final String apiSecret;
  private final String legacySecret;
  private final Map<String, String> connectNames;
  private final Map<String, PublicKey> responseKeys; // null: answers not checked; empty: nothing trusted
  private final long maxSkewSeconds;
  private final LegacyTransport legacyTransport;
  private final Clock clock;
  private final Wire.Options wire;

  private final Object lock = new Object();
  private Session current;
  private HeartbeatLoop loop;

  private Client(Builder b) {
    this.baseUrl = b.baseUrl.replaceAll("/+$", "");
    this.programId = b.programId;
    this.apiSecret = b.apiSecret;
    this.legacySecret = b.legacySecret;
    this.connectNames = Map.copyOf(b.connectFieldNames);
    this.maxSkewSeconds = b.responseMaxSkew.toSeconds();
    this.legacyTransport = b.legacyTransport;
    this.clock = b.clock;
    if (b.responseKeys == null) {
      this.responseKeys = null;
    } else {
      Map<String, PublicKey> keys = new LinkedHashMap<>();
      b.responseKeys.forEach((kid, key) -> {
        try {
          keys.put(kid, Trust.publicKey(key));
        } catch (IllegalArgumentException e) { // a pinned key that cannot be right is a programming error: say so now
          throw new IllegalArgumentException("responseKeys[" + kid + "]: " + e.getMessage());
        }
      });
      this.responseKeys = Map.copyOf(keys);
    }
    HttpExchange http = b.http != null ? b.http : new JdkHttpExchange(b.timeout);
    this.wire = new Wire.Options(baseUrl, http, b.timeout, b.retries, b.retryDelay);
  }

  /** A builder: {@code baseUrl}, {@code programId} and {@code apiSecret} are required. */
  public static Builder builder() {
    return new Builder();
  }

  /** The public program ID this client speaks for. */
  public String programId() {
    return programId;
  }

  // ----- the session ---------------------------------------------------------------------------

  /** The session held after an SDK card or user login, if any. */
  public Optional<Session> session() {
    synchronized (lock) {
      return Optional.ofNullable(current);
    }
  }

  /** Takes up a session kept from an earlier run; the next heartbeat tells whether the service still accepts it. */
  public void restoreSession(Session session) {
    if (session == null) throw new IllegalArgumentException("session is required");
    synchronized (lock) {
      current = session;
    }
  }

  /** Forgets the session and stops the heartbeat loop (the session itself simply expires). */
  public void clearSession() {
    HeartbeatLoop stopped;
    synchronized (lock) {
      current = null;
      stopped = loop;
      loop = null;
    }
    if (stopped != null) stopped.stop();
  }

  /** Stops the heartbeat loop, if any; the held session is kept (see {@link #session()}). */
  @Override
  public void close() {
    HeartbeatLoop stopped;
    synchronized (lock) {
      stopped = loop;
      loop = null;
    }
    if (stopped != null) stopped.stop();
  }

  // ----- SDK v1 --------------------------------------------------------------------------------

  /**
   * SDK card login ({@code POST /api/v1/cards/login}): on success the client holds a card session.
   * {@code data} carries {@code session_token}, {@code session_expires_at},
   * {@code heartbeat_interval_seconds}, the card ({@code id, code, machine_code, expires_at}) and
   * the top-level {@code token} and {@code statecode}.
   */
  public Result cardLogin(String cardKey, String machineId) {
    Result result = Bindings.bind(withTopLevel(sdk("/api/v1/cards/login", true, Family.ANY_CODE, "card_key", cardKey, "machine_id", machineId)),
        Bindings.card(machineId, cardKey));
    String token = result.data().text("session_token");
    if (result.success() && token != null && !token.isEmpty()) {
      Fields data = result.data();
      hold(new Session(Session.Type.CARD, token, machineId, data.text("session_expires_at"),
          data.integer("heartbeat_interval_seconds").orElse(0), data.integer("id").orElse(0), 0));
    }
    return result;
  }

  /** Renews the held card session; SESSION_INVALID or SESSION_TYPE_MISMATCH clears it (and ends a running loop). */
  public Result cardHeartbeat() {
    return heartbeat(Session.Type.CARD);
  }

  /**
   * This device's one trial card ({@code POST /api/v1/cards/trial}, decisions §21), already bound to
   * it: {@code data} {@code {code, expires_at, machine_code, trial, features}}; log in with {@code code}.
   * A repeat answers the same card while it is valid, then TRIAL_USED; safe to retry.
   */
  public Result cardTrial(String machineId) {
    Result result = sdk("/api/v1/cards/trial", true, 0, "machine_id", machineId);
    return Bindings.bind(result, java.util.List.of(new Bindings.Named("machine_code", machineId, "device", true)));
  }

  /**
   * An offline licence for this bound device ({@code POST /api/v1/cards/checkout}): {@code data}
   * {@code {licence, kid, expires_at, valid_until}}. Keep {@code licence} for an outage and check it
   * with {@link #checkLicence}. {@code ttl} null leaves the lifetime to the program.
   */
  public Result cardCheckout(String cardKey, String machineId, Duration ttl) {
    if (ttl == null) return sdk("/api/v1/cards/checkout", true, Family.ANY_CODE, "card_key", cardKey, "machine_id", machineId);
    return sdk("/api/v1/cards/checkout", true, Family.ANY_CODE, "card_key", cardKey, "machine_id", machineId, "ttl_seconds", ttl.toSeconds());
  }

  /**
   * Renews a card with a second, unused card of the same program and kind ({@code /api/v1/cards/topup});
   * {@code data} is the renewed card. Refused with nothing changed as TOPUP_REFUSED (the reason in
   * the message). Never retried: a repeat would find the top-up card consumed.
   */
  public Result cardTopup(String cardKey, String topupKey) {
    Result result = sdk("/api/v1/cards/topup", false, 0, "card_key", cardKey, "topup_key", topupKey);
    return Bindings.bind(result, List.of(new Bindings.Named("code", cardKey, "card", false)));
  }

  /** The card as its holder sees it ({@code /api/v1/cards/info}): kind, status, uses, seats, devices, unbind rules. */
  public Result cardInfo(String cardKey) {
    return sdk("/api/v1/cards/info", true, 0, "card_key", cardKey);
  }

  /**
   * The holder's unbind of one device ({@code /api/v1/cards/unbind}): its success is {@code code 1}
   * and only that. It may deduct time and ends that device's sessions. Never retried: each unbind may deduct time.
   */
  public Result cardUnbind(String cardKey, String machineId) {
    Result result = sdk("/api/v1/cards/unbind", false, 1, "card_key", cardKey, "machine_id", machineId);
    return Bindings.bind(result, Bindings.card(machineId, cardKey));
  }

  /**
   * Checks a kept offline licence for this program and device with the pinned response keys,
   * without a network. Use it when a login answers NETWORK_ERROR, never after a refusal: a banned
   * card must stop. Without pinned keys nothing can be verified: never valid.
   */
  public Licence.Check checkLicence(String licence, String cardKey, String machineId) {
    if (responseKeys == null) return Licence.Check.refused("no pinned responseKeys to verify it with");
    return Licence.verify(licence, responseKeys, programId, machineId, cardKey, clock.instant());
  }

  /** SDK program-user registration: {@code data} {@code {user_id, username, status}}. Never retried (a repeat would find the name taken). */
  public Result userRegister(String username, String password, String machineId) {
    return sdk("/api/v1/users/register", false, Family.ANY_CODE, "username", username, "password", password, "machine_id", machineId);
  }

  /**
   * SDK program-user login: on success the client holds a user session on the machine finally bound
   * ({@code data.machine_id}). {@code data} {@code {profile: {user_id, username, ...}, session_token, session_expires_at, ...}}.
   */
  public Result userLogin(String username, String password, String machineId) {
    Result result = sdk("/api/v1/users/login", true, Family.ANY_CODE, "username", username, "password", password, "machine_id", machineId);
    String token = result.data().text("session_token");
    if (result.success() && token != null && !token.isEmpty()) {
      Fields data = result.data();
      Fields profile = data.object("profile");
      String bound = data.text("machine_id");
      hold(new Session(Session.Type.APP_USER, token, bound == null || bound.isEmpty() ? machineId : bound,
          data.text("session_expires_at"), data.integer("heartbeat_interval_seconds").orElse(0), 0,
          profile == null ? 0 : profile.integer("user_id").orElse(0)));
    }
    return result;
  }

  /** Renews the held user session; SESSION_INVALID or SESSION_TYPE_MISMATCH clears it. */
  public Result userHeartbeat() {
    return heartbeat(Session.Type.APP_USER);
  }

  /** SDK version check: {@code data} {@code {latest_version, update_available, force_update, changelog, download_url}} (the URL may be relative). */
  public Result checkVersion(String version) {
    return sdk("/api/v1/apps/version", true, Family.ANY_CODE, "version", version);
  }

  // ----- HTTP V3 and Connect -------------------------------------------------------------------

  /** HTTP V3 card login (signed form): a compatible token in {@code data.token}, no session. */
  public Result v3CardLogin(String cardKey, String machineId) {
    String path = "/api/legacy/v3/cards/login";
    byte[] body = form(fields("app", programId, "kami", cardKey, "imei", machineId));
    Result result = call(Family.STANDARD, new Wire.Call("POST", path, () -> signed(path, FORM, body), true), Family.ANY_CODE);
    return Bindings.bind(withTopLevel(result), Bindings.card(machineId, cardKey));
  }

  /** Connect login with a fresh nonce per attempt; see {@link #connectLogin(String, String, ConnectNonce)}. */
  public Result connectLogin(String cardKey, String serial) {
    return connectLogin(cardKey, serial, ConnectNonce.fresh());
  }

  /**
   * Connect login ({@code POST /connect/{program_id}}): unsigned, replay-protected by a nonce. Its
   * success is {@code status: true} (code 1); the token is in {@code data.token} and opens no session.
   */
  public Result connectLogin(String cardKey, String serial, ConnectNonce nonce) {
    String path = "/connect/" + URLEncoder.encode(programId, StandardCharsets.UTF_8);
    Wire.Call call = new Wire.Call("POST", path, () -> {
      Map<String, String> fields = fields("user_key", cardKey, "serial", serial);
      String sent = nonce.isFresh() ? Signing.newNonce() : nonce.own();
      if (nonce.send()) fields.put("nonce", sent);
      return new Wire.Attempt(headers(FORM), form(fields), nonce.send() ? sent : "");
    }, nonce.isFresh());
    // Connect's success names the device (machine_code) but not the card.
    return Bindings.bind(call(Family.CONNECT, call, Family.ANY_CODE), List.of(new Bindings.Named("machine_code", serial, "device", true)));
  }

  /** The legacy V1 card routes (MD5-signed; through the encrypted aggregate entry with a {@link LegacyTransport}). */
  public LegacyRoutes legacy() {
    if (legacySecret == null || legacySecret.isEmpty()) throw new IllegalStateException("the legacy routes need legacySecret");
    return new LegacyRoutes(this, programId, legacySecret, legacyTransport);
  }

  // ----- the heartbeat loop ------------------------------------------------------------------

  /**
   * Heartbeats the held session every {@code interval} on a background thread. {@code interval}
   * null: the login answer's {@code heartbeat_interval_seconds}, else 60 s. When the session ends it
   * is cleared, the loop stops and {@code listener.onSessionEnded} is called once; other failures go
   * to {@code onError} and the loop keeps its rhythm. One loop per client: starting another stops
   * the previous one; {@link #clearSession()} and {@link #close()} stop it too.
   *
   * @throws IllegalStateException when no session is held
   */
  public HeartbeatLoop startHeartbeat(Duration interval, HeartbeatListener listener) {
    HeartbeatLoop previous;
    HeartbeatLoop started;
    synchronized (lock) {
      if (current == null) throw new IllegalStateException("startHeartbeat needs a session: log in with cardLogin or userLogin first");
      Duration every = interval != null ? interval
          : current.heartbeatIntervalSeconds() > 0 ? Duration.ofSeconds(current.heartbeatIntervalSeconds()) : Duration.ofSeconds(60);
      if (every.isNegative() || every.isZero()) throw new IllegalArgumentException("interval must be positive");
      previous = loop;
      started = new HeartbeatLoop(this::beatHeld, every, listener);
      loop = started;
    }
    if (previous != null) previous.stop();
    return started;
  }

  private Result beatHeld() {
    Session held = session().orElse(null);
    return held == null ? null : heartbeat(held.type());
  }

  private Result heartbeat(Session.Type type) {
    Session session = session().orElse(null);
    if (session == null || session.type() != type) {
      return Result.failure(ErrorCodes.NO_SESSION, "No " + (type == Session.Type.CARD ? "card" : "user") + " session: log in first", 0, null);
    }
    String path = type == Session.Type.CARD ? "/api/v1/cards/heartbeat" : "/api/v1/users/heartbeat";
    byte[] body = json(fields("machine_id", session.machineId()));
    Result result = call(Family.STANDARD, new Wire.Call("POST", path, () -> {
      // A nonce binds the signed answer to this heartbeat: an old answer cannot be replayed.
      String nonce = Signing.newNonce();
      Map<String, String> headers = headers(JSON);
      headers.put("Authorization", "Bearer " + session.token());
      headers.put(Signing.NONCE_HEADER, nonce);
      return new Wire.Attempt(headers, body, nonce);
    }, true), Family.ANY_CODE);
    // The token travels in a header, outside the signed digest: the answer must name this session's card or user.
    Bindings.Named owner = type == Session.Type.CARD ? new Bindings.Named("card_id", session.cardId(), "card", true)
        : new Bindings.Named("user_id", session.userId(), "user", true);
    if (!Long.valueOf(0).equals(owner.value())) result = Bindings.bind(result, List.of(owner));
    HeartbeatLoop ended = null;
    synchronized (lock) {
      if (current == session) {
        String expiry = result.success() ? result.data().text("session_expires_at") : null;
        if (expiry != null) current = session.renewedUntil(expiry);
        if (!result.success() && ErrorCodes.sessionEnded(result.code())) {
          current = null;
          ended = loop;
          loop = null;
        }
      }
    }
    if (ended != null) ended.end(result); // also when a direct call, not the loop, met the end
    return result;
  }

  private void hold(Session session) {
    synchronized (lock) {
      current = session;
    }
  }

  // ----- requests ------------------------------------------------------------------------------

  /** A signed SDK call: JSON with {@code app} first, signed afresh for each attempt. {@code pairs}: name, value, name, value... */
  private Result sdk(String path, boolean idempotent, int routeCode, Object... pairs) {
    Map<String, Object> payload = new LinkedHashMap<>();
    payload.put("app", programId);
    for (int i = 0; i < pairs.length; i += 2) payload.put((String) pairs[i], pairs[i + 1]);
    byte[] body = Json.write(payload).getBytes(StandardCharsets.UTF_8);
    return call(Family.STANDARD, new Wire.Call("POST", path, () -> signed(path, JSON, body), idempotent), routeCode);
  }

  private Wire.Attempt signed(String path, String contentType, byte[] body) {
    String timestamp = Long.toString(clock.instant().getEpochSecond());
    String nonce = Signing.newNonce();
    Map<String, String> headers = headers(contentType);
    headers.put(Signing.TIMESTAMP_HEADER, timestamp);
    headers.put(Signing.NONCE_HEADER, nonce);
    headers.put(Signing.SIGNATURE_HEADER, Signing.hmacSignature(apiSecret, "POST", path, timestamp, nonce, body));
    return new Wire.Attempt(headers, body, nonce);
  }

  /** Sends a call and judges its answer: with pinned keys its signature first, then the family's rule. */
  Result call(Family family, Wire.Call call, int routeCode) {
    Wire.Outcome outcome = Wire.send(wire, call);
    if (outcome instanceof Wire.NoAnswer none) return none.result();
    Wire.Sent sent = (Wire.Sent) outcome;
    if (responseKeys != null) {
      String distrust = Trust.answerDistrust(new Trust.SignedAnswer(call.method(), call.path(), sent.nonce(), sent.sent(), sent.answer()),
          responseKeys, maxSkewSeconds, clock.instant());
      if (distrust != null) {
        return Result.failure(ErrorCodes.UNTRUSTED_RESPONSE, "Untrusted answer: " + distrust, sent.answer().status(), null);
      }
    }
    return Judge.judge(family, sent.answer(), connectNames, routeCode);
  }

  long nowSeconds() {
    return clock.instant().getEpochSecond();
  }

  /** The standard card logins carry {@code token} and {@code statecode} at the top level: offer them in data too. */
  private static Result withTopLevel(Result result) {
    if (!result.success()) return result;
    Map<String, Object> data = new LinkedHashMap<>(result.data().asMap());
    for (String name : List.of("token", "statecode")) {
      if (result.body().has(name)) data.put(name, result.body().get(name));
    }
    return result.withData(new Fields(data));
  }

  static Map<String, String> headers(String contentType) {
    Map<String, String> headers = new LinkedHashMap<>();
    headers.put("Content-Type", contentType);
    headers.put("Accept", JSON);
    headers.put("User-Agent", "cardkey-client-java/" + VERSION);
    return headers;
  }

  static Map<String, String> fields(String... pairs) {
    Map<String, String> out = new LinkedHashMap<>();
    for (int i = 0; i < pairs.length; i += 2) out.put(pairs[i], pairs[i + 1]);
    return out;
  }

  /** {@code application/x-www-form-urlencoded} of the fields, in order. */
  static byte[] form(Map<String, String> fields) {
    StringBuilder out = new StringBuilder();
    fields.forEach((name, value) -> {
      if (out.length() > 0) out.append('&');
      out.append(URLEncoder.encode(name, StandardCharsets.UTF_8)).append('=').append(URLEncoder.encode(value, StandardCharsets.UTF_8));
    });
    return out.toString().getBytes(StandardCharsets.UTF_8);
  }

  static byte[] json(Map<String, String> fields) {
    return Json.write(fields).getBytes(StandardCharsets.UTF_8);
  }

  /** Never the secrets or the session token. */
  @Override
  public String toString() {
    return "Client[baseUrl=" + baseUrl + ", programId=" + programId + ", apiSecret=[redacted], legacySecret="
        + (legacySecret == null ? "none" : "[redacted]") + ", pinnedKeys=" + (responseKeys == null ? "none" : responseKeys.size()) + "]";
  }

  /** Options of a {@link Client}. */
  public static final class Builder {
    private String baseUrl;
    private String programId;
    private String apiSecret;
    private String legacySecret;
    private Map<String, String> connectFieldNames = Map.of();
    private Duration timeout = Duration.ofSeconds(10);
    private int retries = 2;
    private Duration retryDelay = Duration.ofMillis(250);
    private Map<String, String> responseKeys;
    private Duration responseMaxSkew = Duration.ofSeconds(300);
    private LegacyTransport legacyTransport;
    private HttpExchange http;
    private Clock clock = Clock.systemUTC();

    private Builder() {}

    /** The service's address, e.g. {@code https://licence.example.com} (no route path). */
    public Builder baseUrl(String baseUrl) {
      this.baseUrl = baseUrl;
      return this;
    }

    /** The public 8-digit program ID, never the internal project key. */
    public Builder programId(String programId) {
      this.programId = programId;
      return this;
    }

    /** The project's api_secret: signs V3 and SDK requests. */
    public Builder apiSecret(String apiSecret) {
      this.apiSecret = apiSecret;
      return this;
    }

    /** The project's legacy_secret: signs the legacy routes (MD5); needed only by {@link Client#legacy()}. */
    public Builder legacySecret(String legacySecret) {
      this.legacySecret = legacySecret;
      return this;
    }

    /** This program's Connect field names ({@code {"status": "ok"}}), when its author renamed them. */
    public Builder connectFieldNames(Map<String, String> names) {
      this.connectFieldNames = Map.copyOf(names);
      return this;
    }

    /** Bounds one attempt (connect, send, read); default 10 s. */
    public Builder timeout(Duration timeout) {
      this.timeout = timeout;
      return this;
    }

    /** Further attempts of an idempotent call after a missing answer (0–10); default 2. Business refusals are never retried. */
    public Builder retries(int retries) {
      this.retries = retries;
      return this;
    }

    /** The first backoff, doubled each attempt (capped at 8 times), with jitter; default 250 ms. */
    public Builder retryDelay(Duration retryDelay) {
      this.retryDelay = retryDelay;
      return this;
    }

    /**
     * The program's pinned response-signing keys (kid → base64url public key, from
     * {@code GET /admin/v1/projects/{id}/signing-keys}). When set (even empty), every answer must carry
     * a valid v2 signature of one of them over this request, else it is UNTRUSTED_RESPONSE.
     */
    public Builder responseKeys(Map<String, String> keys) {
      this.responseKeys = keys == null ? null : Map.copyOf(keys);
      return this;
    }

    /** How far an answer's signing time may be from this clock; default 300 s. */
    public Builder responseMaxSkew(Duration skew) {
      this.responseMaxSkew = skew;
      return this;
    }

    /** The project's transport encryption when it is not none: {@link Client#legacy()} then goes through {@code /api/app}. */
    public Builder legacyTransport(LegacyTransport transport) {
      this.legacyTransport = transport;
      return this;
    }

    /** The HTTP stack (an Android adapter, a proxy); default {@link JdkHttpExchange}. */
    public Builder http(HttpExchange http) {
      this.http = http;
      return this;
    }

    /** The clock of timestamps and of the answers' time window; default the system clock. */
    public Builder clock(Clock clock) {
      this.clock = clock;
      return this;
    }

    /** Checks the options; IllegalArgumentException for a programming error. */
    public Client build() {
      String lower = baseUrl == null ? "" : baseUrl.toLowerCase(Locale.ROOT);
      if (!lower.startsWith("http://") && !lower.startsWith("https://")) throw new IllegalArgumentException("baseUrl must be an http or https address");
      if (programId == null || programId.isEmpty()) throw new IllegalArgumentException("programId is required");
      if (apiSecret == null || apiSecret.isEmpty()) throw new IllegalArgumentException("apiSecret is required");
      if (timeout == null || timeout.isNegative() || timeout.isZero()) throw new IllegalArgumentException("timeout must be positive");
      if (retries < 0 || retries > 10) throw new IllegalArgumentException("retries must be 0 to 10");
      if (retryDelay == null || retryDelay.isNegative()) throw new IllegalArgumentException("retryDelay cannot be negative");
      if (responseMaxSkew == null || responseMaxSkew.isNegative()) throw new IllegalArgumentException("responseMaxSkew cannot be negative");
      if (clock == null) throw new IllegalArgumentException("clock is required");
      return new Client(this);
    }

    /** Never the secrets. */
    @Override
    public String toString() {
      return "Client.Builder[baseUrl=" + baseUrl + ", programId=" + programId + ", apiSecret=" + (apiSecret == null ? "none" : "[redacted]")
          + ", legacySecret=" + (legacySecret == null ? "none" : "[redacted]") + "]";
    }
  }
}
