package cardkey.client;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** The shared vector file, sdk/vectors/signing-vectors.json, found from the working directory upwards. */
final class Vectors {
  private Vectors() {}

  private static Map<String, Object> file;

  static synchronized Map<String, Object> all() throws Exception {
    if (file == null) {
      String configured = System.getProperty("cardkey.vectors");
      Path path = configured != null ? Path.of(configured) : find();
      file = Json.asObject(Json.parse(Files.readString(path)));
    }
    return file;
  }

  private static Path find() {
    for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
      Path candidate = dir.resolve("sdk/vectors/signing-vectors.json");
      if (Files.isRegularFile(candidate)) return candidate;
    }
    throw new IllegalStateException("sdk/vectors/signing-vectors.json not found above " + Path.of("").toAbsolutePath());
  }

  @SuppressWarnings("unchecked")
  static List<Map<String, Object>> list(Object value) {
    return (List<Map<String, Object>>) value;
  }

  static Map<String, Object> object(Map<String, Object> parent, String name) {
    return Json.asObject(parent.get(name));
  }

  static String text(Map<String, Object> parent, String name) {
    return Json.asString(parent.get(name));
  }
}
