package cardkey.client;

import static cardkey.client.Assert.check;
import static cardkey.client.Assert.equal;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * The client against a real service, run by test/e2e/clients/java-client.e2e-spec.ts, which starts the service,
 * arranges a program (Connect open, unbinding on, offline_grace_seconds > 0), unused cards, a
 * program user, one program per transport encryption and a relay, then runs
 * {@code TestRunner live} with this environment. Without CARDKEY_LIVE_URL every test skips.
 *
 * <pre>
 * CARDKEY_LIVE_URL CARDKEY_PROGRAM_ID CARDKEY_API_SECRET CARDKEY_LEGACY_SECRET CARDKEY_PROJECT_ID
 * CARDKEY_ADMIN_TOKEN CARDKEY_USER_NAME CARDKEY_USER_PASSWORD CARDKEY_RESPONSE_KEYS ({"kid": "key"})
 * CARDKEY_CARD_{SDK,LOOP,V3,CONNECT,LEGACY,PINNED,SELF,TOPUP,RELAY_GENUINE} (unused cards)
 * CARDKEY_SEALED_PROGRAMS ([{"mode","program_id","api_secret","legacy_secret","transport_key","card"}])
 * CARDKEY_RELAY_URL CARDKEY_RELAY_TYPED_KEY CARDKEY_RELAY_MACHINE (test/support/relay.ts)
 * </pre>
 */
public final class LiveTest {
  private static final Pattern TIMESTAMP = Pattern.compile("\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}");
  private static final Pattern TOKEN = Pattern.compile("[\\w-]{43}");

  private static String env(String name) {
    if (System.getenv("CARDKEY_LIVE_URL") == null) throw new TestRunner.Skipped("CARDKEY_LIVE_URL is not set: no service to test against");
    String value = System.getenv("CARDKEY_" + name);
    if (value == null || value.isEmpty()) throw new AssertionError("CARDKEY_" + name + " is not set");
    return value;
  }

  private static Client client(Consumer<Client.Builder> edit) {
    Client.Builder builder = Client.builder().baseUrl(env("LIVE_URL")).programId(env("PROGRAM_ID")).apiSecret(env("API_SECRET"))
        .legacySecret(env("LEGACY_SECRET")).retryDelay(Duration.ofMillis(10));
    edit.accept(builder);
    return builder.build();
  }

  private static Map<String, String> keys() {
    Map<String, String> keys = new LinkedHashMap<>();
    Json.asObject(parse(env("RESPONSE_KEYS"))).forEach((kid, key) -> keys.put(kid, (String) key));
    check(!keys.isEmpty(), "CARDKEY_RESPONSE_KEYS is empty");
    return keys;
  }

  private static Client pinned() {
    Map<String, String> keys = keys();
    return client(b -> b.responseKeys(keys));
  }

  private static Object parse(String text) {
    try {
      return Json.parse(text);
    } catch (Json.ParseException e) {
      throw new AssertionError(e);
    }
  }

  @Test
  public void cardLoginsOfEveryFamily() {
    Client client = pinned();
    String card = env("CARD_SDK");
    Result login = client.cardLogin(card, "java-sdk-pc");
    Assert.succeeded(login, "SDK login");
    equal(0, login.code(), "code");
    equal(200, login.httpStatus(), "status");
    equal(card, login.data().text("code"), "card");
    equal("java-sdk-pc", login.data().text("machine_code"), "device");
    equal("active", login.data().text("statecode"), "statecode");
    check(TOKEN.matcher(login.data().text("session_token")).matches() && TOKEN.matcher(login.data().text("token")).matches(), "tokens");
    check(TIMESTAMP.matcher(login.data().text("session_expires_at")).matches(), "session expiry");
    equal(60L, login.data().integer("heartbeat_interval_seconds").getAsLong(), "interval");
    Result beat = client.cardHeartbeat();
    Assert.succeeded(beat, "heartbeat");
    equal(login.data().integer("id").getAsLong(), beat.data().integer("card_id").getAsLong(), "the session's card");
    check(beat.data().integer("server_time").orElse(0) > 0, "server time");
    Assert.refused(client.userHeartbeat(), ErrorCodes.NO_SESSION, "a user heartbeat on a card session");

    Result v3 = client.v3CardLogin(env("CARD_V3"), "java-v3-pc");
    Assert.succeeded(v3, "V3");
    check(TOKEN.matcher(v3.data().text("token")).matches() && v3.data().text("session_token") == null, "V3 token, no session");
    String connectCard = env("CARD_CONNECT");
    Result connect = client.connectLogin(connectCard, "java-connect-pc");
    Assert.succeeded(connect, "Connect");
    equal(1, connect.code(), "Connect code");
    String nonce = "java-" + Signing.newNonce();
    Assert.succeeded(client.connectLogin(connectCard, "java-connect-pc", ConnectNonce.own(nonce)), "Connect with a nonce of ours");
    Result replay = client.connectLogin(connectCard, "java-connect-pc", ConnectNonce.own(nonce));
    Assert.refused(replay, ErrorCodes.NONCE_REPLAYED, "Connect replay");
    equal(409, replay.httpStatus(), "409");

    LegacyRoutes legacy = client.legacy();
    String legacyCard = env("CARD_LEGACY");
    Result legacyLogin = legacy.cardLogin(legacyCard, "java-legacy-pc");
    Assert.succeeded(legacyLogin, "legacy login");
    equal(1, legacyLogin.code(), "legacy code");
    Result unbind = legacy.unbind(legacyCard, "java-legacy-pc");
    Assert.succeeded(unbind, "legacy unbind");
    equal(1L, unbind.data().integer("unbind_count").getAsLong(), "unbind count");
    Assert.refused(legacy.unbind(legacyCard, "java-legacy-pc"), ErrorCodes.UNBIND_REFUSED, "unbind again");
  }

  @Test
  public void refusalsAreFailuresWithTheirCodes() {
    Client client = pinned();
    Result refused = client.cardLogin("NO-SUCH-CARD-KEY", "java-sdk-pc");
    Assert.refused(refused, ErrorCodes.CARD_INVALID, "SDK");
    equal(200, refused.httpStatus(), "a business refusal is HTTP 200");
    check(!refused.message().isEmpty() && refused.requestId().length() == 32, "message and request id");
    Assert.refused(client.v3CardLogin("NO-SUCH-CARD-KEY", "m"), ErrorCodes.CARD_INVALID, "V3");
    Assert.refused(client.connectLogin("NO-SUCH-CARD-KEY", "m"), ErrorCodes.CARD_INVALID, "Connect");
    Assert.refused(client.legacy().cardLogin("NO-SUCH-CARD-KEY", "m"), ErrorCodes.CARD_INVALID, "legacy");
    Result wrongSecret = client(b -> b.apiSecret("not-the-secret")).cardLogin(env("CARD_SDK"), "m");
    Assert.refused(wrongSecret, ErrorCodes.SIGNATURE_INVALID, "wrong secret");
    equal(401, wrongSecret.httpStatus(), "401");
    String card = env("CARD_PINNED");
    Assert.succeeded(client.cardLogin(card, "java-pinned-pc"), "first device");
    Assert.refused(client.cardLogin(card, "java-other-pc"), ErrorCodes.DEVICE_LIMIT_REACHED, "a signed refusal is believed as a refusal");
  }

  @Test
  public void heartbeatLoopEndsWhenTheOwnerRevokesTheSession() throws Exception {
    // Unpinned: the service answers a revoked session's heartbeat unsigned (it no longer knows the
    // program), which a pinned client takes for untrusted and reports to onError.
    Client client = client(b -> {});
    Result login = client.cardLogin(env("CARD_LOOP"), "java-loop-pc");
    Assert.succeeded(login, "login");
    List<Result> beats = new CopyOnWriteArrayList<>();
    List<Result> errors = new CopyOnWriteArrayList<>();
    HeartbeatLoop loop = client.startHeartbeat(Duration.ofMillis(50), new HeartbeatListener() {
      @Override
      public void onBeat(Result r) {
        beats.add(r);
      }

      @Override
      public void onError(Result r) {
        errors.add(r);
      }
    });
    try {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (beats.size() < 2 && System.nanoTime() < deadline) Thread.sleep(10);
      check(beats.size() >= 2, "two beats succeeded; errors: " + errors);
      revokeCardSessions(login.data().integer("id").getAsLong());
      Optional<Result> ended = loop.finished().get(10, TimeUnit.SECONDS);
      check(ended.isPresent(), "the end was told; errors: " + errors);
      Assert.refused(ended.get(), ErrorCodes.SESSION_INVALID, "ended");
      equal(401, ended.get().httpStatus(), "401");
      check(ended.get().endedBy() == null || ended.get().endedBy().equals("forced_offline"), "ended_by " + ended.get().endedBy());
      System.out.println("    session ended: " + ended.get().message() + " (ended_by " + ended.get().endedBy() + ")");
      check(loop.await(Duration.ofSeconds(5)), "the loop's thread has gone");
      check(client.session().isEmpty(), "the revoked session is cleared");
    } finally {
      loop.stop();
    }
  }

  private static void revokeCardSessions(long cardId) throws Exception {
    HttpRequest request = HttpRequest.newBuilder(URI.create(env("LIVE_URL") + "/admin/v1/projects/" + env("PROJECT_ID") + "/sessions/revoke"))
        .header("Content-Type", "application/json").header("Authorization", "Bearer " + env("ADMIN_TOKEN"))
        .POST(HttpRequest.BodyPublishers.ofString("{\"card_id\":" + cardId + "}")).build();
    HttpResponse<String> response = HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofString());
    equal(200, response.statusCode(), "revoke: " + response.body());
  }

  @Test
  public void programUserFlowAndVersionCheck() {
    Client client = pinned();
    String fresh = "java." + Signing.newNonce().substring(0, 10);
    Result registered = client.userRegister(fresh, "pass-word-1", "java-user-pc");
    Assert.succeeded(registered, "register");
    equal(fresh, registered.data().text("username"), "username");
    equal("active", registered.data().text("status"), "status");
    String username = env("USER_NAME");
    String password = env("USER_PASSWORD");
    Assert.refused(client.userRegister(username, "pass-word-1", "java-user-pc"), ErrorCodes.USERNAME_TAKEN, "taken");
    Assert.refused(client.userLogin(username, "wrong-password", "java-user-pc"), ErrorCodes.BAD_CREDENTIALS, "bad credentials");
    Result login = client.userLogin(username, password, "java-user-pc");
    Assert.succeeded(login, "login");
    equal(username, login.data().object("profile").text("username"), "profile");
    equal("java-user-pc", login.data().text("machine_id"), "machine");
    Result beat = client.userHeartbeat();
    Assert.succeeded(beat, "user heartbeat");
    equal(login.data().object("profile").integer("user_id").getAsLong(), beat.data().integer("user_id").getAsLong(), "the session's user");
    Assert.refused(client.cardHeartbeat(), ErrorCodes.NO_SESSION, "a card heartbeat on a user session");
    Result older = client.checkVersion("1.1.0");
    Assert.succeeded(older, "version");
    equal("1.2.0", older.data().text("latest_version"), "latest");
    check(Boolean.TRUE.equals(older.data().bool("update_available")) && Boolean.TRUE.equals(older.data().bool("force_update")), "update forced");
    Result bad = client.checkVersion("not a version");
    Assert.refused(bad, ErrorCodes.BAD_REQUEST, "bad version");
    equal(400, bad.httpStatus(), "400");
  }

  @Test
  public void selfServiceInfoTopupAndUnbind() {
    Client client = pinned();
    String card = env("CARD_SELF");
    Assert.succeeded(client.cardLogin(card, "java-self-pc"), "login");
    Result info = client.cardInfo(card);
    Assert.succeeded(info, "info");
    equal("active", info.data().text("status"), "status");
    List<Fields> devices = info.data().objects("devices");
    check(devices.size() == 1 && "java-self-pc".equals(devices.get(0).text("machine_code")), "devices");
    check(Boolean.TRUE.equals(info.data().object("unbind").bool("enabled")), "unbind enabled");
    Result topup = client.cardTopup(card, env("CARD_TOPUP"));
    Assert.succeeded(topup, "top-up");
    check(topup.data().text("expires_at").compareTo(info.data().text("expires_at")) > 0, "later expiry");
    Result again = client.cardTopup(card, env("CARD_TOPUP"));
    check(!again.success() && (again.code() == ErrorCodes.TOPUP_REFUSED || again.code() == ErrorCodes.CARD_INVALID), "a consumed top-up card: " + again);
    Result unbind = client.cardUnbind(card, "java-self-pc");
    Assert.succeeded(unbind, "unbind");
    equal(1, unbind.code(), "unbind code 1");
    equal(1L, unbind.data().integer("unbind_count").getAsLong(), "count");
  }

  @Test
  public void trialCardBoundToThisDevice() {
    Client client = pinned();
    String machine = "java-trial-" + System.nanoTime();
    Result trial = client.cardTrial(machine);
    Assert.succeeded(trial, "trial");
    check(trial.trial(), "trial");
    equal(machine, trial.data().text("machine_code"), "bound to this device");
    equal(List.of("trial"), trial.features(), "features");
    equal(trial.data().text("code"), client.cardTrial(machine).data().text("code"), "a repeat answers the same card");
    Result login = client.cardLogin(trial.data().text("code"), machine);
    Assert.succeeded(login, "login");
    check(login.trial(), "login says trial");
    check(client.cardHeartbeat().trial(), "heartbeat says trial");
  }

  @Test
  public void offlineLicence() {
    Client client = pinned();
    String card = env("CARD_PINNED");
    Assert.succeeded(client.cardLogin(card, "java-pinned-pc"), "login");
    Result checkout = client.cardCheckout(card, "java-pinned-pc", Duration.ofMinutes(10));
    Assert.succeeded(checkout, "checkout");
    String licence = checkout.data().text("licence");
    check(licence != null && checkout.data().integer("valid_until").getAsLong() > Instant.now().getEpochSecond(), "a licence valid later");
    Licence.Check check = client.checkLicence(licence, card, "java-pinned-pc");
    check(check.valid(), "valid: " + check.reason());
    equal(env("PROGRAM_ID"), check.payload().text("program_id"), "program");
    equal("java-pinned-pc", check.payload().text("machine_id"), "machine");
    check(!client.checkLicence(licence, card, "another-pc").valid(), "another machine");
    check(!client(b -> b.responseKeys(FakeService.KEYS)).checkLicence(licence, card, "java-pinned-pc").valid(), "another program's key");
  }

  /** What a proxy editing a genuine answer produces: the service's answer with one byte more, its signature headers kept. */
  private static HttpExchange tampering() {
    JdkHttpExchange direct = new JdkHttpExchange(Duration.ofSeconds(5));
    return request -> {
      HttpExchange.Answer genuine = direct.send(request);
      String body = new String(genuine.body(), StandardCharsets.UTF_8);
      return new HttpExchange.Answer(genuine.status(), genuine.headers(), (body.substring(0, body.length() - 1) + " }").getBytes(StandardCharsets.UTF_8));
    };
  }

  @Test
  public void tamperedForeignAndRelayedAnswersAreRefused() {
    Map<String, String> keys = keys();
    String card = env("CARD_PINNED");
    Assert.succeeded(pinned().cardLogin(card, "java-pinned-pc"), "genuine");
    Client tampered = client(b -> b.responseKeys(keys).http(tampering()));
    for (Result r : List.of(tampered.cardLogin(card, "java-pinned-pc"), tampered.v3CardLogin(card, "java-pinned-pc"))) {
      Assert.refused(r, ErrorCodes.UNTRUSTED_RESPONSE, "tampered");
      check(r.message().contains("does not verify"), r.message());
    }
    check(tampered.session().isEmpty(), "a tampered login holds no session");
    Assert.refused(client(b -> b.responseKeys(FakeService.KEYS)).cardLogin(card, "java-pinned-pc"), ErrorCodes.UNTRUSTED_RESPONSE, "foreign key");

    // The relay of issue 33 sends the service a valid card of its own instead of the typed one.
    String typed = env("RELAY_TYPED_KEY");
    String machine = env("RELAY_MACHINE");
    Client relayed = client(b -> b.baseUrl(env("RELAY_URL")).responseKeys(keys));
    List<Result> results = List.of(relayed.connectLogin(typed, machine), relayed.legacy().cardLogin(typed, machine),
        relayed.v3CardLogin(typed, machine), relayed.cardLogin(typed, machine));
    for (Result r : results) {
      Assert.refused(r, ErrorCodes.UNTRUSTED_RESPONSE, "relayed login");
      equal("Untrusted answer: the answer signature does not verify", r.message(), "relayed login");
    }
    Client direct = pinned();
    Assert.succeeded(direct.cardLogin(env("CARD_RELAY_GENUINE"), machine), "direct");
    Session session = direct.session().orElseThrow();
    relayed.restoreSession(session);
    Result beat = relayed.cardHeartbeat();
    Assert.refused(beat, ErrorCodes.UNTRUSTED_RESPONSE, "relayed heartbeat");
    equal("Untrusted answer: it is for another card than the one sent", beat.message(), "relayed heartbeat");
    equal(session, relayed.session().orElseThrow(), "an untrusted heartbeat neither renewed nor ended the session");
  }

  @Test
  public void legacyThroughEachTransportEncryption() {
    List<?> programs = (List<?>) parse(env("SEALED_PROGRAMS"));
    equal(3, programs.size(), "one program per mode");
    for (Object item : programs) {
      Fields p = new Fields(Json.asObject(item));
      Client client = client(b -> b.programId(p.text("program_id")).apiSecret(p.text("api_secret")).legacySecret(p.text("legacy_secret"))
          .legacyTransport(new LegacyTransport(p.text("mode"), p.text("transport_key"))));
      Result login = client.legacy().cardLogin(p.text("card"), "java-sealed-pc");
      Assert.succeeded(login, p.text("mode") + " login");
      equal("java-sealed-pc", login.data().text("machine_code"), p.text("mode") + " device");
      Result unbind = client.legacy().unbind(p.text("card"), "java-sealed-pc");
      Assert.succeeded(unbind, p.text("mode") + " unbind");
      equal(1L, unbind.data().integer("unbind_count").getAsLong(), p.text("mode") + " unbind count");
    }
  }
}
