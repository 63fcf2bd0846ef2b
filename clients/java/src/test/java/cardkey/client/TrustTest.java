package cardkey.client;

import static cardkey.client.Assert.check;
import static cardkey.client.Assert.equal;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;

/** Untrusted answers are never reported as success (protocol §6.2, decisions §17). */
public final class TrustTest {
  private static final String OK = ClientTest.LOGIN_OK;

  @Test
  public void aGenuineSignedAnswerIsBelieved() {
    Result login = new FakeService().answer(200, OK).client(true).cardLogin("CK-1", "PC-1");
    Assert.succeeded(login, "signed by the pinned key over this request");
  }

  @Test
  public void unsignedTamperedV1ForeignAndStaleAnswersAreUntrusted() {
    Map<String, java.util.function.Function<HttpExchange.Request, HttpExchange.Answer>> fakes = new HashMap<>();
    fakes.put("the answer is not signed", r -> new HttpExchange.Answer(200, Map.of(), OK.getBytes(StandardCharsets.UTF_8)));
    fakes.put("the answer signature does not verify", r -> {
      HttpExchange.Answer genuine = FakeService.sign(r, 200, OK, Map.of());
      return new HttpExchange.Answer(200, genuine.headers(), OK.replace("}", " }").getBytes(StandardCharsets.UTF_8));
    });
    fakes.put("the answer is not signed in version 2 (X-Svc-Response-Version: 1)",
        r -> FakeService.signAt(r, 200, OK, Map.of(), Instant.now().getEpochSecond(), "1"));
    fakes.put("the answer signature is outside the time window",
        r -> FakeService.signAt(r, 200, OK, Map.of(), Instant.now().getEpochSecond() - 301, "2"));
    fakes.put("the answer is signed with an unknown key other-kid", r -> {
      Map<String, String> headers = new HashMap<>(FakeService.sign(r, 200, OK, Map.of()).headers());
      headers.put("x-svc-response-key", "other-kid");
      return new HttpExchange.Answer(200, headers, OK.getBytes(StandardCharsets.UTF_8));
    });
    fakes.put("the answer signature does not verify (status)", r -> {
      HttpExchange.Answer genuine = FakeService.sign(r, 201, OK, Map.of());
      return new HttpExchange.Answer(200, genuine.headers(), genuine.body());
    });
    fakes.forEach((why, fake) -> {
      FakeService service = new FakeService().then(fake);
      Client client = service.client(true);
      Result login = client.cardLogin("CK-1", "PC-1");
      Assert.refused(login, ErrorCodes.UNTRUSTED_RESPONSE, why);
      equal("Untrusted answer: " + why.replace(" (status)", ""), login.message(), "reason");
      check(client.session().isEmpty(), why + ": no session held");
      check(login.data().asMap().isEmpty(), why + ": no data offered");
      equal(1, service.requests.size(), why + ": not retried");
    });
  }

  @Test
  public void anAnswerSignedForAnotherRequestIsUntrusted() {
    // A relay keeps the nonce but sends the service another card: the digest of what this client sent differs.
    FakeService service = new FakeService().then(r -> {
      byte[] swapped = new String(r.body(), StandardCharsets.UTF_8).replace("CK-1", "CK-9").getBytes(StandardCharsets.UTF_8);
      return FakeService.sign(new HttpExchange.Request(r.method(), r.uri(), r.headers(), swapped, r.timeout()), 200, OK, Map.of());
    });
    Assert.refused(service.client(true).cardLogin("CK-1", "PC-1"), ErrorCodes.UNTRUSTED_RESPONSE, "relayed");
  }

  @Test
  public void aSignedRefusalIsBelievedAsARefusal() {
    Result refused = new FakeService().answer(200, "{\"code\":20004,\"success\":false,\"msg\":\"device limit\"}").client(true).cardLogin("CK-1", "PC-1");
    Assert.refused(refused, ErrorCodes.DEVICE_LIMIT_REACHED, "signed refusal");
  }

  @Test
  public void anEmptyPinnedSetTrustsNothing() {
    Client client = Client.builder().baseUrl("http://fake.test").programId("48213907").apiSecret("s").responseKeys(Map.of())
        .http(new FakeService().answer(200, OK)).build();
    Assert.refused(client.cardLogin("CK-1", "PC-1"), ErrorCodes.UNTRUSTED_RESPONSE, "fail closed");
  }

  @Test
  public void aSuccessNamingAnotherDeviceOrCardIsUntrustedEvenUnpinned() {
    Assert.refused(new FakeService().answer(200, OK).client(false).cardLogin("CK-1", "OTHER-PC"), ErrorCodes.UNTRUSTED_RESPONSE, "another device");
    Result card = new FakeService().answer(200, OK).client(false).cardLogin("CK-OTHER", "PC-1");
    Assert.refused(card, ErrorCodes.UNTRUSTED_RESPONSE, "another card");
    equal("Untrusted answer: it is for another card than the one sent", card.message(), "names what differs, not the values");
    Assert.refused(new FakeService().answer(200, OK.replace("\"machine_code\":\"PC-1\",", "")).client(false).cardLogin("CK-1", "PC-1"),
        ErrorCodes.UNTRUSTED_RESPONSE, "no device named");
    Assert.refused(new FakeService().answer(200, "{\"status\":true,\"code\":1,\"data\":{\"token\":\"t\",\"machine_code\":\"X\"}}").client(false)
        .connectLogin("CK-1", "PC-1"), ErrorCodes.UNTRUSTED_RESPONSE, "Connect for another device");
  }

  @Test
  public void aHeartbeatNamingAnotherCardOrUserIsUntrustedAndKeepsTheSession() {
    FakeService service = new FakeService().answer(200, OK)
        .answer(200, "{\"code\":0,\"success\":true,\"data\":{\"card_id\":9999,\"session_expires_at\":\"2031-01-01 00:00:00\"}}");
    Client client = service.client(true);
    Assert.succeeded(client.cardLogin("CK-1", "PC-1"), "login");
    Session before = client.session().orElseThrow();
    Result beat = client.cardHeartbeat();
    Assert.refused(beat, ErrorCodes.UNTRUSTED_RESPONSE, "another card's heartbeat");
    equal("Untrusted answer: it is for another card than the one sent", beat.message(), "message");
    equal(before, client.session().orElseThrow(), "neither renewed nor ended");
    HttpExchange.Request sent = service.last();
    equal("Bearer sess-token-secret", sent.headers().get("Authorization"), "bearer token");
    check(sent.headers().get(Signing.NONCE_HEADER) != null, "a heartbeat carries a nonce for its signed answer");
    equal("{\"machine_id\":\"PC-1\"}", new String(sent.body(), StandardCharsets.UTF_8), "heartbeat body");

    Client user = new FakeService().answer(200, "{\"code\":0,\"success\":true,\"data\":{\"profile\":{\"user_id\":7},\"session_token\":\"u\",\"machine_id\":\"PC-1\"}}")
        .answer(200, "{\"code\":0,\"success\":true,\"data\":{\"user_id\":8}}").client(true);
    Assert.succeeded(user.userLogin("li.wei", "password", "PC-1"), "user login");
    Assert.refused(user.userHeartbeat(), ErrorCodes.UNTRUSTED_RESPONSE, "another user's heartbeat");
  }

  @Test
  public void checkLicenceNeedsPinnedKeys() {
    equal("no pinned responseKeys to verify it with", new FakeService().client(false).checkLicence("a.b", "CK-1", "PC-1").reason(), "unpinned");
  }
}
