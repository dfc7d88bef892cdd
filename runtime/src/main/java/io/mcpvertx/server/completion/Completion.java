package io.mcpvertx.server.completion;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Locale;

/**
 * Completion values. At most 100 go on the wire; when there are more, the rest are cut and {@code hasMore} is set.
 */
public record Completion(List<String> values, Integer total, boolean hasMore) {

  public static final int MAX_VALUES = 100;

  public Completion {
    values = List.copyOf(values);
  }

  public static Completion of(List<String> values) {
    return new Completion(values, values.size(), false);
  }

  /** The values that start with {@code prefix}, case-insensitively, in their given order. */
  public static Completion matching(List<String> candidates, String prefix) {
    String p = prefix == null ? "" : prefix.toLowerCase(Locale.ROOT);
    return of(candidates.stream().filter(c -> c.toLowerCase(Locale.ROOT).startsWith(p)).toList());
  }

  public JsonObject toJson() {
    List<String> shown = values.size() > MAX_VALUES ? values.subList(0, MAX_VALUES) : values;
    JsonObject completion = new JsonObject().put("values", new JsonArray(List.copyOf(shown)));
    if (total != null) {
      completion.put("total", total);
    }
    if (hasMore || values.size() > MAX_VALUES) {
      completion.put("hasMore", true);
    }
    return new JsonObject().put("completion", completion);
  }
}
