package cardkey.client;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/** Judges an answer by its family's rule (docs/protocol.md §1, docs/errors.md). */
final class Judge {
  private Judge() {}

  private static final List<String> CONNECT_TOP_FIELDS = List.of("status", "code", "reason", "data", "request_id");
  private static final List<String> CONNECT_DATA_FIELDS = List.of("token", "expires_at", "device_limit", "server_time", "machine_code", "announcement");

  /**
   * Anything that is not a JSON object, or is a redirect, is UNEXPECTED_RESPONSE. A failure never
   * carries 0 or 1: an answer that fails its rule with such a code is UNEXPECTED_RESPONSE too.
   */
  static Result judge(Family family, HttpExchange.Answer answer, Map<String, String> connectNames, int routeCode) {
    Map<String, Object> received = Json.parseObject(answer.body());
    Map<String, Object> body = family == Family.CONNECT ? renameConnect(received, connectNames) : received;
    int status = answer.status();
    String requestId = body == null ? null : Json.asString(body.get("request_id"));
    if (requestId == null) requestId = answer.header("x-request-id");
    Duration retryAfter = retryAfter(answer.header("retry-after"));
    if (body == null || (status >= 300 && status < 400)) {
      return new Result(false, ErrorCodes.UNEXPECTED_RESPONSE, unexpected(answer), requestId, null, status, retryAfter, null, null, null, null, null);
    }
    Fields data = new Fields(Json.asObject(body.get("data")));
    String message = Json.asString(body.get(family == Family.CONNECT ? "reason" : "msg"));
    OptionalLong code = Json.asInteger(body.get("code"));
    if (family.isSuccess(body, routeCode)) {
      int successCode = (int) (code.isPresent() ? code.getAsLong() : family.successCode);
      return new Result(true, successCode, message, requestId, null, status, retryAfter, data, data.texts("features"), null, null, new Fields(received));
    }
    int failureCode;
    if (code.isPresent() && Math.abs(code.getAsLong()) > 1 && Math.abs(code.getAsLong()) < Integer.MAX_VALUE) {
      failureCode = (int) Math.abs(code.getAsLong());
      if (message == null || message.isEmpty()) message = unexpected(answer);
    } else if (code.isPresent()) {
      failureCode = ErrorCodes.UNEXPECTED_RESPONSE;
      message = "Unexpected answer (HTTP " + status + "): code " + code.getAsLong() + " is neither this route's success nor a failure code";
    } else {
      failureCode = ErrorCodes.UNEXPECTED_RESPONSE;
      if (message == null || message.isEmpty()) message = unexpected(answer);
    }
    String endedBy = null;
    String endedAt = null;
    if (failureCode == ErrorCodes.SESSION_INVALID) { // decisions §18
      endedBy = data.text("ended_by");
      endedAt = data.text("ended_at");
    }
    return new Result(false, failureCode, message, requestId, Json.asString(body.get("error_id")), status, retryAfter, data, null, endedBy, endedAt, new Fields(received));
  }

  /** Maps a customized Connect answer back to the default names (unknown fields stay as they are). */
  static Map<String, Object> renameConnect(Map<String, Object> body, Map<String, String> names) {
    if (body == null || names.isEmpty()) return body;
    Map<String, Object> top = renameBack(body, names, CONNECT_TOP_FIELDS);
    Map<String, Object> data = Json.asObject(top.get("data"));
    if (data != null) top.put("data", renameBack(data, names, CONNECT_DATA_FIELDS));
    return top;
  }

  private static Map<String, Object> renameBack(Map<String, Object> source, Map<String, String> names, List<String> fields) {
    Map<String, Object> out = new LinkedHashMap<>(source);
    for (String field : fields) {
      String custom = names.get(field);
      if (custom == null || custom.equals(field) || !source.containsKey(custom)) continue;
      out.put(field, source.get(custom));
      out.remove(custom);
    }
    return out;
  }

  private static Duration retryAfter(String header) {
    if (header == null) return null;
    try {
      double seconds = Double.parseDouble(header.trim());
      return seconds >= 0 && seconds < 1e9 ? Duration.ofMillis((long) (seconds * 1000)) : null;
    } catch (NumberFormatException e) {
      return null;
    }
  }

  static String unexpected(HttpExchange.Answer answer) {
    int status = answer.status();
    if (status >= 300 && status < 400) return "Unexpected redirect (HTTP " + status + "): check the service address";
    String type = answer.header("content-type");
    return "Unexpected answer (HTTP " + status + ", " + (type == null ? "no content type" : type) + "): check the service address";
  }
}
