package cardkey.client;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * An object of an answer (its {@code data}, a licence payload), every field kept as received:
 * answers may gain fields at any time. The readers answer null (or empty) for a field that is
 * absent or of another JSON type, never throw.
 */
public final class Fields {
  static final Fields EMPTY = new Fields(Map.of());

  private final Map<String, Object> values;

  Fields(Map<String, Object> values) {
    this.values = values == null ? Map.of() : Collections.unmodifiableMap(values);
  }

  /** The field's text, or null when absent or not a string. */
  public String text(String name) {
    return Json.asString(values.get(name));
  }

  /** The field as a whole number, or empty when absent or not one. */
  public OptionalLong integer(String name) {
    return Json.asInteger(values.get(name));
  }

  /** The field as a boolean, or null when absent or not one. */
  public Boolean bool(String name) {
    return values.get(name) instanceof Boolean b ? b : null;
  }

  /** A nested object, or null when absent or not an object. */
  public Fields object(String name) {
    Map<String, Object> nested = Json.asObject(values.get(name));
    return nested == null ? null : new Fields(nested);
  }

  /** A nested list of objects (e.g. {@code devices}); empty when absent or not a list. */
  public List<Fields> objects(String name) {
    if (!(values.get(name) instanceof List<?> list)) return List.of();
    return list.stream().map(Json::asObject).filter(o -> o != null).map(Fields::new).toList();
  }

  /** The strings of a list field (e.g. {@code features}); empty when absent, non-strings left out. */
  public List<String> texts(String name) {
    if (!(values.get(name) instanceof List<?> list)) return List.of();
    return list.stream().filter(String.class::isInstance).map(String.class::cast).toList();
  }

  /** True when the field is present, null included. */
  public boolean has(String name) {
    return values.containsKey(name);
  }

  /** The raw decoded value (see {@link Json}). */
  public Object get(String name) {
    return values.get(name);
  }

  /** Every field as decoded (see {@link Json}); unmodifiable. */
  public Map<String, Object> asMap() {
    return values;
  }

  /** The field names only: values may be tokens, which never belong in a log. */
  @Override
  public String toString() {
    return "Fields" + values.keySet();
  }
}
