package cardkey.client;

import static cardkey.client.Assert.check;
import static cardkey.client.Assert.equal;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;

/** Each family's success rule, and failures that never pass one. */
public final class JudgeTest {
  private static Result judge(Family family, int status, String body, int routeCode) {
    return Judge.judge(family, new HttpExchange.Answer(status, Map.of("Content-Type", "application/json", "X-Request-Id", "hdr-id"),
        body.getBytes(StandardCharsets.UTF_8)), Map.of(), routeCode);
  }

  private static Result judge(Family family, String body) {
    return judge(family, 200, body, Family.ANY_CODE);
  }

  @Test
  public void connectSucceedsOnStatusTrueOnlyNeverOnCode() {
    Result ok = judge(Family.CONNECT, "{\"status\":true,\"code\":1,\"reason\":\"Login successful\",\"data\":{\"token\":\"t\"},\"request_id\":\"r\"}");
    check(ok.success() && ok.code() == 1 && "t".equals(ok.data().text("token")) && "r".equals(ok.requestId()), "status true: " + ok);
    Assert.refused(judge(Family.CONNECT, "{\"status\":false,\"code\":-20002,\"reason\":\"expired\"}"), ErrorCodes.CARD_EXPIRED, "negative code made positive");
    Assert.refused(judge(Family.CONNECT, "{\"code\":0}"), ErrorCodes.UNEXPECTED_RESPONSE, "code 0 is not a Connect success");
    Assert.refused(judge(Family.CONNECT, "{\"status\":\"true\",\"code\":1}"), ErrorCodes.UNEXPECTED_RESPONSE, "the string \"true\" is not true");
  }

  @Test
  public void standardSucceedsOnSuccessOrCodeZeroOrOne() {
    check(judge(Family.STANDARD, "{\"code\":0,\"success\":true,\"msg\":\"ok\",\"data\":{}}").success(), "code 0 success true");
    check(judge(Family.STANDARD, "{\"code\":0}").success(), "code 0 alone");
    check(judge(Family.STANDARD, "{\"code\":1}").success(), "code 1 alone");
    Assert.refused(judge(Family.STANDARD, "{\"code\":0,\"success\":false}"), ErrorCodes.UNEXPECTED_RESPONSE, "success false wins over code 0");
    Assert.refused(judge(Family.STANDARD, 401, "{\"code\":10101,\"success\":false,\"msg\":\"The signature is invalid\"}", Family.ANY_CODE),
        ErrorCodes.SIGNATURE_INVALID, "a refusal");
    Assert.refused(judge(Family.STANDARD, "{\"code\":true}"), ErrorCodes.UNEXPECTED_RESPONSE, "true is not code 1");
  }

  @Test
  public void routesWithTheirOwnCodeSucceedOnlyOnIt() {
    check(judge(Family.STANDARD, 200, "{\"code\":1,\"success\":true}", 1).success(), "unbind code 1");
    Assert.refused(judge(Family.STANDARD, 200, "{\"code\":0,\"success\":true}", 1), ErrorCodes.UNEXPECTED_RESPONSE, "unbind answering code 0");
    Assert.refused(judge(Family.STANDARD, 200, "{\"code\":1,\"success\":true}", 0), ErrorCodes.UNEXPECTED_RESPONSE, "info answering code 1");
    Assert.raises(IllegalArgumentException.class, () -> Family.LEGACY.isSuccess(Map.of(), 1), "a route code outside the standard family");
  }

  @Test
  public void legacySucceedsOnCodeOneOnly() {
    check(judge(Family.LEGACY, "{\"code\":1,\"msg\":\"ok\",\"data\":{}}").success(), "code 1");
    check(judge(Family.LEGACY, "{\"code\":1.0}").success(), "code 1.0");
    Assert.refused(judge(Family.LEGACY, "{\"code\":0,\"msg\":\"ok\"}"), ErrorCodes.UNEXPECTED_RESPONSE, "code 0 is not a legacy success");
    Assert.refused(judge(Family.LEGACY, "{\"code\":20004,\"msg\":\"device limit\"}"), ErrorCodes.DEVICE_LIMIT_REACHED, "a refusal");
    Assert.refused(judge(Family.LEGACY, "{\"success\":true}"), ErrorCodes.UNEXPECTED_RESPONSE, "success without code 1");
  }

  @Test
  public void whatIsNotTheFamilysJsonIsUnexpected() {
    Result html = Judge.judge(Family.STANDARD, new HttpExchange.Answer(200, Map.of("Content-Type", "text/html"), "<html>".getBytes(StandardCharsets.UTF_8)), Map.of(), Family.ANY_CODE);
    Assert.refused(html, ErrorCodes.UNEXPECTED_RESPONSE, "html");
    check(html.message().contains("text/html"), "the message names the content type: " + html.message());
    Result redirect = judge(Family.STANDARD, 302, "{\"code\":0,\"success\":true}", Family.ANY_CODE);
    Assert.refused(redirect, ErrorCodes.UNEXPECTED_RESPONSE, "a redirect is never a success, whatever its body");
    equal("hdr-id", redirect.requestId(), "request id from the header when the body has none");
  }

  @Test
  public void endedByAndFeaturesAreExposed() {
    Result ended = judge(Family.STANDARD, 401, "{\"code\":30101,\"success\":false,\"msg\":\"ended\",\"data\":{\"ended_by\":\"forced_offline\",\"ended_at\":\"2030-01-01 00:05:00\"}}", Family.ANY_CODE);
    equal("forced_offline", ended.endedBy(), "ended_by");
    equal("2030-01-01 00:05:00", ended.endedAt(), "ended_at");
    equal(ErrorCodes.Action.LOG_IN_AGAIN, ended.action(), "what to do");
    Result login = judge(Family.STANDARD, "{\"code\":0,\"success\":true,\"data\":{\"features\":[\"pro\",\"export\",7]}}");
    equal(java.util.List.of("pro", "export"), login.features(), "features (non-strings left out)");
    check(judge(Family.STANDARD, "{\"code\":0,\"success\":true,\"data\":{}}").features().isEmpty(), "no features: empty");
  }

  @Test
  public void trialIsExposed() {
    check(judge(Family.STANDARD, "{\"code\":0,\"success\":true,\"data\":{\"trial\":true}}").trial(), "a trial card");
    check(!judge(Family.STANDARD, "{\"code\":0,\"success\":true,\"data\":{\"trial\":false}}").trial(), "another card");
    check(!judge(Family.STANDARD, "{\"code\":0,\"success\":true,\"data\":{}}").trial(), "an older service: not a trial");
    check(!judge(Family.STANDARD, "{\"code\":20011,\"success\":false,\"msg\":\"used\",\"data\":{\"trial\":true}}").trial(), "a refusal is no trial");
  }

  @Test
  public void retryAfterAndErrorIdAreKept() {
    Result limited = Judge.judge(Family.STANDARD, new HttpExchange.Answer(429, Map.of("Retry-After", "17"),
        "{\"code\":10302,\"success\":false,\"msg\":\"slow down\"}".getBytes(StandardCharsets.UTF_8)), Map.of(), Family.ANY_CODE);
    equal(Duration.ofSeconds(17), limited.retryAfter(), "Retry-After");
    equal(ErrorCodes.Action.WAIT_THEN_RETRY, limited.action(), "what to do");
    Result fault = judge(Family.LEGACY, 500, "{\"code\":50000,\"msg\":\"fault\",\"error_id\":\"e1\",\"request_id\":\"r1\"}", Family.ANY_CODE);
    equal("e1", fault.errorId(), "error id");
    equal(ErrorCodes.Action.RETRY_LATER, fault.action(), "what to do");
    equal(ErrorCodes.Action.SHOW_AND_STOP, judge(Family.LEGACY, "{\"code\":20002,\"msg\":\"expired\"}").action(), "a business refusal");
  }

  @Test
  public void customizedConnectNamesAreReadBack() {
    Result ok = Judge.judge(Family.CONNECT, new HttpExchange.Answer(200, Map.of(),
        "{\"ok\":true,\"code\":1,\"why\":\"fine\",\"payload\":{\"licence\":\"tok\",\"machine_code\":\"PC\"}}".getBytes(StandardCharsets.UTF_8)),
        Map.of("status", "ok", "reason", "why", "data", "payload", "token", "licence"), Family.ANY_CODE);
    check(ok.success(), "renamed status");
    equal("tok", ok.data().text("token"), "renamed token");
    equal("fine", ok.message(), "renamed reason");
  }
}
