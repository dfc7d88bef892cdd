package io.mcpvertx.annotations;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The Java types the schema tests describe: one of each case the generator must get right. */
final class Shapes {

  private Shapes() {
  }

  /** Any annotation of this simple name makes a member optional. */
  @Retention(RetentionPolicy.RUNTIME)
  @interface Nullable {
  }

  enum Unit { CELSIUS, FAHRENHEIT }

  @JsonClassDescription("A point on the globe")
  record Place(@JsonPropertyDescription("Degrees north") double latitude,
      @JsonPropertyDescription("Degrees east") double longitude, Optional<String> label) {
  }

  record Forecast(Place place, Unit unit, List<Reading> readings, Map<String, Integer> counts,
      @Nullable String note) {
  }

  record Reading(String hour, double value) {
  }

  /** A tree: the type refers to itself, so it goes to $defs. */
  record Node(String name, List<Node> children) {
  }

  /** A bean rather than a record. */
  public static final class Station {
    private String id;
    private int elevation;

    public String getId() {
      return id;
    }

    public void setId(String id) {
      this.id = id;
    }

    public int getElevation() {
      return elevation;
    }

    public void setElevation(int elevation) {
      this.elevation = elevation;
    }
  }
}
