package cardkey.client;

import static cardkey.client.Assert.check;
import static cardkey.client.Assert.equal;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/** What a caller sees of the client against a scripted service: signing, sessions, retries, the success rules. */
public final class ClientTest {
  static final String LOGIN_OK = "{\"token\":\"compat-token\",\"statecode\":\"active\",\"code\":0,\"success\":true,\"msg\":\"Login successful\","
      + "\"data\":{\"id\":1042,\"code\":\"CK-1\",\"machine_code\":\"PC-1\",\"expires_at\":\"2030-01-01 00:00:00\",\"session_token\":\"sess-token-secret\","
      + "\"session_expires_at\":\"2030-01-01 00:10:00\",\"heartbeat_interval_seconds\":60,\"features\":[\"pro\"]},\"request_id\":\"r1\"}";

  private static String text(byte[] body) {
    return new String(body, StandardCharsets.UTF_8);
  }

  @Test
  public void sdkCardLoginIsSignedOverTheBytesSentAndHoldsASession() {
    FakeService service = new FakeService().answer(200, LOGIN_OK);
    Client client = service.client(false);
    Result login = client.cardLogin("CK-1", "PC-1");
    Assert.succeeded(login, "login");
    equal(0, login.code(), "code");
    equal("compat-token", login.data().text("token"), "top-level token offered in data");
    equal("active", login.data().text("statecode"), "statecode");
    equal(java.util.List.of("pro"), login.features(), "features");
    HttpExchange.Request sent = service.last();
    equal("{\"app\":\"48213907\",\"card_key\":\"CK-1\",\"machine_id\":\"PC-1\"}", text(sent.body()), "body");
    equal("application/json", sent.headers().get("Content-Type"), "content type");
    String expected = Signing.hmacSignature("sk_test_secret", "POST", "/api/v1/cards/login", sent.headers().get(Signing.TIMESTAMP_HEADER),
        sent.headers().get(Signing.NONCE_HEADER), sent.body());
    equal(expected, sent.headers().get(Signing.SIGNATURE_HEADER), "signature over the exact bytes");
    check(Math.abs(Long.parseLong(sent.headers().get(Signing.TIMESTAMP_HEADER)) - System.currentTimeMillis() / 1000) < 5, "timestamp in seconds");
    Session session = client.session().orElseThrow();
    equal(Session.Type.CARD, session.type(), "card session");
    equal(1042L, session.cardId(), "card id kept for the heartbeat check");
    equal("sess-token-secret", session.token(), "session token");
    equal(60L, session.heartbeatIntervalSeconds(), "interval");
  }

  @Test
  public void cardTrialIsSignedAndMustNameThisDevice() {
    String ok = "{\"code\":0,\"success\":true,\"msg\":\"Trial card issued\",\"data\":{\"code\":\"TRIAL-1\",\"expires_at\":\"2030-01-01 00:00:00\","
        + "\"machine_code\":\"PC-1\",\"trial\":true,\"features\":[\"basic\"]},\"request_id\":\"r1\"}";
    FakeService service = new FakeService().answer(200, ok).answer(200, "{\"code\":20011,\"success\":false,\"msg\":\"used\",\"request_id\":\"r2\"}")
        .answer(200, ok.replace("\"PC-1\"", "\"PC-2\""));
    Client client = service.client(false);
    Result trial = client.cardTrial("PC-1");
    Assert.succeeded(trial, "trial");
    check(trial.trial(), "trial exposed");
    equal("TRIAL-1", trial.data().text("code"), "the card");
    equal(java.util.List.of("basic"), trial.features(), "features");
    equal("{\"app\":\"48213907\",\"machine_id\":\"PC-1\"}", text(service.last().body()), "body");
    Assert.refused(client.cardTrial("PC-1"), ErrorCodes.TRIAL_USED, "trial used");
    equal(20011, ErrorCodes.TRIAL_USED, "code");
    Assert.refused(client.cardTrial("PC-1"), ErrorCodes.UNTRUSTED_RESPONSE, "an answer for another device");
  }

  @Test
  public void aLoginSuccessWithoutASessionTokenHoldsNoSession() {
    Client client = new FakeService().answer(200, LOGIN_OK.replace(",\"session_token\":\"sess-token-secret\"", "")).client(false);
    Assert.succeeded(client.cardLogin("CK-1", "PC-1"), "login");
    check(client.session().isEmpty(), "nothing to heartbeat with");
    Assert.refused(client.cardHeartbeat(), ErrorCodes.NO_SESSION, "no session");
  }

  @Test
  public void aMissingAnswerOfAnIdempotentCallIsRetriedWithAFreshNonceThenReported() {
    FakeService service = new FakeService().down().down().down();
    Result result = service.client(false).cardLogin("CK-1", "PC-1");
    Assert.refused(result, ErrorCodes.NETWORK_ERROR, "network");
    equal(3, service.requests.size(), "one try and two retries");
    Set<String> nonces = new HashSet<>();
    service.requests.forEach(r -> nonces.add(r.headers().get(Signing.NONCE_HEADER)));
    equal(3, nonces.size(), "each attempt signed afresh");
    equal(ErrorCodes.Action.RETRY_LATER, result.action(), "what to do");
    FakeService recovers = new FakeService().down().answer(200, LOGIN_OK);
    Assert.succeeded(recovers.client(false).cardLogin("CK-1", "PC-1"), "the retry's answer");
  }

  @Test
  public void callsThatMustNotRepeatAreNeverRetried() {
    for (String route : new String[] {"topup", "register", "unbind"}) {
      FakeService service = new FakeService().down();
      Client client = service.client(false);
      Result result = switch (route) {
        case "topup" -> client.cardTopup("CK-1", "CK-2");
        case "register" -> client.userRegister("li.wei", "pass-word", "PC-1");
        default -> client.cardUnbind("CK-1", "PC-1");
      };
      Assert.refused(result, ErrorCodes.NETWORK_ERROR, route);
      equal(1, service.requests.size(), route + " sent once");
    }
  }

  @Test
  public void businessRefusalsAreNeverRetried() {
    FakeService service = new FakeService().answer(200, "{\"code\":20002,\"success\":false,\"msg\":\"The card has expired\",\"request_id\":\"r\"}");
    Result result = service.client(false).cardLogin("CK-1", "PC-1");
    Assert.refused(result, ErrorCodes.CARD_EXPIRED, "expired");
    equal("The card has expired", result.message(), "message for the user");
    equal(1, service.requests.size(), "asked once");
    FakeService limited = new FakeService().answer(429, "{\"code\":10302,\"success\":false,\"msg\":\"Too many\"}");
    Assert.refused(limited.client(false).cardLogin("CK-1", "PC-1"), ErrorCodes.RATE_LIMITED, "rate limited");
    equal(1, limited.requests.size(), "a 429 is not retried sooner");
  }

  @Test
  public void aGatewaysHtmlFailureIsRetriedButAJsonFiveHundredIsAnAnswer() {
    FakeService gateway = new FakeService().then(r -> new HttpExchange.Answer(502, Map.of("Content-Type", "text/html"), "<html>bad gateway</html>".getBytes(StandardCharsets.UTF_8)));
    Assert.refused(gateway.client(false).cardInfo("CK-1"), ErrorCodes.NETWORK_ERROR, "gateway");
    equal(3, gateway.requests.size(), "retried");
    FakeService fault = new FakeService().answer(500, "{\"code\":50000,\"success\":false,\"msg\":\"fault\",\"error_id\":\"e1\"}");
    Result result = fault.client(false).cardInfo("CK-1");
    Assert.refused(result, ErrorCodes.SYSTEM_ERROR, "fault");
    equal("e1", result.errorId(), "error id");
    equal(1, fault.requests.size(), "a service answer is not retried");
  }

  @Test
  public void v3LoginIsASignedFormWithoutASession() {
    FakeService service = new FakeService().answer(200, LOGIN_OK.replace(",\"session_token\":\"sess-token-secret\"", ""));
    Client client = service.client(false);
    Assert.succeeded(client.v3CardLogin("CK-1", "PC-1"), "V3");
    HttpExchange.Request sent = service.last();
    equal("/api/legacy/v3/cards/login", sent.uri().getPath(), "path");
    equal("app=48213907&kami=CK-1&imei=PC-1", text(sent.body()), "form");
    equal(Client.FORM, sent.headers().get("Content-Type"), "content type");
    check(client.session().isEmpty(), "V3 opens no session");
  }

  @Test
  public void connectSendsAFreshNonceAndNeverRetriesOneOfYours() {
    String ok = "{\"status\":true,\"code\":1,\"reason\":\"ok\",\"data\":{\"token\":\"t\",\"machine_code\":\"PC-1\"}}";
    FakeService service = new FakeService().down().answer(200, ok);
    Client client = service.client(false);
    Result login = client.connectLogin("CK 1&x", "PC-1");
    Assert.succeeded(login, "Connect");
    equal(1, login.code(), "Connect success code");
    Map<String, String> first = FakeService.formFields(service.requests.get(0).body());
    Map<String, String> second = FakeService.formFields(service.requests.get(1).body());
    equal("CK 1&x", first.get("user_key"), "the key, form-encoded");
    check(!first.get("nonce").equals(second.get("nonce")), "a fresh nonce per attempt");
    equal("/connect/48213907", service.last().uri().getPath(), "path");

    FakeService once = new FakeService().down();
    Assert.refused(once.client(false).connectLogin("CK-1", "PC-1", ConnectNonce.own("my-nonce-1")), ErrorCodes.NETWORK_ERROR, "own nonce");
    equal(1, once.requests.size(), "a nonce of yours is never retried");
    FakeService none = new FakeService().answer(200, ok);
    none.client(false).connectLogin("CK-1", "PC-1", ConnectNonce.none());
    check(!FakeService.formFields(none.last().body()).containsKey("nonce"), "no nonce");
  }

  @Test
  public void unbindSucceedsOnCodeOneOnly() {
    String card = "\"data\":{\"id\":1,\"code\":\"CK-1\",\"machine_code\":\"PC-1\",\"unbind_count\":1}";
    Assert.succeeded(new FakeService().answer(200, "{\"code\":1,\"success\":true," + card + "}").client(false).cardUnbind("CK-1", "PC-1"), "code 1");
    Assert.refused(new FakeService().answer(200, "{\"code\":0,\"success\":true," + card + "}").client(false).cardUnbind("CK-1", "PC-1"),
        ErrorCodes.UNEXPECTED_RESPONSE, "code 0 is not an unbind's success");
  }

  @Test
  public void userLoginHoldsAUserSessionOnTheBoundMachine() {
    FakeService service = new FakeService().answer(200, "{\"code\":0,\"success\":true,\"data\":{\"profile\":{\"user_id\":7,\"username\":\"li.wei\"},"
        + "\"session_token\":\"user-secret-token\",\"session_expires_at\":\"2030-01-01 00:10:00\",\"machine_id\":\"PC-BOUND\",\"heartbeat_interval_seconds\":30}}");
    Client client = service.client(false);
    Assert.succeeded(client.userLogin("li.wei", "pässwörd-密码", "PC-1"), "user login");
    Session session = client.session().orElseThrow();
    equal(Session.Type.APP_USER, session.type(), "user session");
    equal("PC-BOUND", session.machineId(), "the machine finally bound");
    equal(7L, session.userId(), "user id");
    check(text(service.last().body()).contains("\"password\":\"pässwörd-密码\""), "UTF-8 body");
    Assert.refused(client.cardHeartbeat(), ErrorCodes.NO_SESSION, "a card heartbeat on a user session");
    equal(1, service.requests.size(), "nothing sent for it");
  }

  @Test
  public void checkoutSendsTheTtlAndVersionCheckTheVersion() {
    FakeService service = new FakeService().answer(200, "{\"code\":0,\"success\":true,\"data\":{\"licence\":\"a.b\",\"valid_until\":1}}");
    Client client = service.client(false);
    Assert.succeeded(client.cardCheckout("CK-1", "PC-1", Duration.ofMinutes(10)), "checkout");
    equal("{\"app\":\"48213907\",\"card_key\":\"CK-1\",\"machine_id\":\"PC-1\",\"ttl_seconds\":600}", text(service.last().body()), "checkout body");
    client.checkVersion("1.2.0");
    equal("{\"app\":\"48213907\",\"version\":\"1.2.0\"}", text(service.last().body()), "version body");
    equal("/api/v1/apps/version", service.last().uri().getPath(), "version path");
  }

  @Test
  public void secretsAndTokensNeverShowInToStrings() {
    FakeService service = new FakeService().answer(200, LOGIN_OK);
    Client client = Client.builder().baseUrl("http://fake.test").programId("48213907").apiSecret("sk_live_SECRET").legacySecret("lg_live_SECRET")
        .legacyTransport(new LegacyTransport("aes", "transport_SECRET")).http(service).build();
    Result login = client.cardLogin("CK-1", "PC-1");
    String shown = client + " " + login + " " + client.session().orElseThrow() + " " + new LegacyTransport("rc4", "transport_SECRET")
        + " " + Client.builder().apiSecret("sk_live_SECRET").legacySecret("lg_live_SECRET");
    for (String secret : new String[] {"SECRET", "sess-token-secret", "compat-token"}) check(!shown.contains(secret), "shown: " + shown);
    check(shown.contains("48213907") && shown.contains("session_token"), "still useful: " + shown);
  }

  @Test
  public void programmingErrorsThrowAtOnce() {
    Assert.raises(IllegalArgumentException.class, () -> Client.builder().baseUrl("licence.example.com").programId("1").apiSecret("s").build(), "no scheme");
    Assert.raises(IllegalArgumentException.class, () -> Client.builder().baseUrl("https://x").apiSecret("s").build(), "no program");
    Assert.raises(IllegalArgumentException.class, () -> Client.builder().baseUrl("https://x").programId("1").build(), "no secret");
    Assert.raises(IllegalArgumentException.class, () -> Client.builder().baseUrl("https://x").programId("1").apiSecret("s").retries(-1).build(), "retries");
    Assert.raises(IllegalArgumentException.class, () -> Client.builder().baseUrl("https://x").programId("1").apiSecret("s")
        .responseKeys(Map.of("k", "not-a-key")).build(), "a pinned key that is not one");
    Client client = new FakeService().client(false);
    Assert.raises(IllegalStateException.class, () -> client.startHeartbeat(null, null), "a loop without a session");
    Assert.raises(IllegalStateException.class, () -> Client.builder().baseUrl("https://x").programId("1").apiSecret("s").build().legacy(), "legacy without its secret");
    Assert.refused(client.cardHeartbeat(), ErrorCodes.NO_SESSION, "a heartbeat without a session is a result, not an exception");
  }

  @Test
  public void theDefaultHttpStackAnswersNetworkErrorWhenNothingListens() throws Exception {
    int port;
    try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    Client client = Client.builder().baseUrl("http://127.0.0.1:" + port).programId("48213907").apiSecret("s").retries(1)
        .retryDelay(Duration.ofMillis(1)).timeout(Duration.ofSeconds(2)).build();
    Assert.refused(client.cardLogin("CK-1", "PC-1"), ErrorCodes.NETWORK_ERROR, "nothing listens");
  }
}
