package cardkey.client;

import static cardkey.client.Assert.check;
import static cardkey.client.Assert.equal;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/** The legacy routes: MD5 signing, code 1, and each transport encryption of the aggregate entry. */
public final class LegacyTest {
  static final String DATA = "{\"token\":\"legacy-token\",\"id\":7,\"code\":\"CK-1\",\"machine_code\":\"PC-1\",\"expires_at\":\"2030-01-01 00:00:00\",\"device_limit\":1}";
  static final String KEY = "9f2c4e6a8b0d1f3e5a7c9e1b3d5f7a9c";

  @Test
  public void cardLoginIsMd5SignedWithANonceAndSucceedsOnCodeOne() {
    FakeService service = new FakeService().answer(200, "{\"code\":1,\"msg\":\"Login successful\",\"data\":" + DATA + "}");
    Result login = service.client(true).legacy().cardLogin("CK-1", "PC-1");
    Assert.succeeded(login, "legacy login");
    equal(1, login.code(), "code 1");
    equal("legacy-token", login.data().text("token"), "token");
    HttpExchange.Request sent = service.last();
    equal("/api/card_login", sent.uri().getPath(), "path");
    Map<String, String> fields = FakeService.formFields(sent.body());
    check(fields.get("nonce") != null && fields.get("t") != null, "nonce and t sent");
    Map<String, String> unsigned = new LinkedHashMap<>(fields);
    unsigned.remove("sign");
    equal(Signing.md5Sign(unsigned, "lg_test_secret"), fields.get("sign"), "the sign covers every field sent, the nonce included");
  }

  @Test
  public void aLegacyCodeZeroIsNotASuccessAndUnbindIsNotRetried() {
    Assert.refused(new FakeService().answer(200, "{\"code\":0,\"msg\":\"ok\",\"data\":" + DATA + "}").client(false).legacy().cardLogin("CK-1", "PC-1"),
        ErrorCodes.UNEXPECTED_RESPONSE, "code 0");
    FakeService down = new FakeService().down();
    Assert.refused(down.client(false).legacy().unbind("CK-1", "PC-1"), ErrorCodes.NETWORK_ERROR, "unbind");
    equal(1, down.requests.size(), "an unbind is sent once");
    equal("/api/unbind_machine", down.last().uri().getPath(), "unbind path");
  }

  @Test
  public void everyTransportModeSealsTheSignedFieldsAndOpensTheAnswer() {
    for (String mode : new String[] {"rc4", "aes", "aes-gcm"}) {
      LegacyTransport transport = new LegacyTransport(mode, KEY);
      FakeService service = new FakeService().then(request -> {
        Map<String, String> outer = FakeService.formFields(request.body());
        Map<String, String> inner = FakeService.formFields(transport.open(outer.get("data")).getBytes(StandardCharsets.UTF_8));
        Map<String, String> unsigned = new LinkedHashMap<>(inner);
        unsigned.remove("sign");
        boolean genuine = "card_login".equals(inner.get("api")) && "48213907".equals(outer.get("app")) && outer.size() == 2
            && Signing.md5Sign(unsigned, "lg_test_secret").equals(inner.get("sign")) && inner.get("nonce") != null;
        String body = genuine ? "{\"code\":1,\"msg\":\"ok\",\"data\":\"" + transport.seal(DATA) + "\"}" : "{\"code\":10001,\"msg\":\"bad\"}";
        return FakeService.sign(request, genuine ? 200 : 400, body, Map.of("Content-Type", "application/json"));
      });
      Client client = Client.builder().baseUrl("http://fake.test").programId("48213907").apiSecret("s").legacySecret("lg_test_secret")
          .legacyTransport(transport).responseKeys(FakeService.KEYS).http(service).build();
      Result login = client.legacy().cardLogin("CK-1", "PC-1");
      Assert.succeeded(login, mode);
      equal("/api/app", service.last().uri().getPath(), mode + " aggregate entry");
      equal("legacy-token", login.data().text("token"), mode + " data opened");
      equal(7L, login.data().integer("id").getAsLong(), mode + " id");
    }
  }

  @Test
  public void sealedDataThatDoesNotOpenIsNeverASuccess() {
    LegacyTransport wrong = new LegacyTransport("aes-gcm", "another-transport-key");
    FakeService service = new FakeService().answer(200, "{\"code\":1,\"msg\":\"ok\",\"data\":\"" + wrong.seal(DATA) + "\"}");
    Client client = Client.builder().baseUrl("http://fake.test").programId("48213907").apiSecret("s").legacySecret("lg")
        .legacyTransport(new LegacyTransport("aes-gcm", KEY)).http(service).build();
    Assert.refused(client.legacy().cardLogin("CK-1", "PC-1"), ErrorCodes.UNEXPECTED_RESPONSE, "does not open");
  }
}
