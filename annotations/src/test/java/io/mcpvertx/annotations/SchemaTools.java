package io.mcpvertx.annotations;

import io.mcpvertx.annotations.Shapes.Forecast;
import io.mcpvertx.annotations.Shapes.Node;
import io.mcpvertx.annotations.Shapes.Nullable;
import io.mcpvertx.annotations.Shapes.Place;
import io.mcpvertx.annotations.Shapes.Station;
import io.mcpvertx.annotations.Shapes.Unit;
import io.mcpvertx.server.RequestContext;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** One tool per schema case; the golden files under {@code schemas/} hold what each must generate. */
public class SchemaTools {

  @McpTool(description = "Plain values")
  public String scalars(String city, int days, @McpArg(description = "Wind too?") boolean wind, Double threshold,
      long stamp) {
    return city;
  }

  @McpTool(description = "Optional, nullable and defaulted arguments")
  public String optionals(Optional<String> region, @Nullable String note,
      @McpArg(defaultValue = "3", description = "How many days") int days,
      @McpArg(defaultValue = "CELSIUS") Unit unit, @McpArg(required = false) String lang, RequestContext ctx) {
    return "";
  }

  @McpTool(description = "Collections")
  public String collections(List<String> cities, Map<String, Double> weights, List<Unit> units) {
    return "";
  }

  @McpTool(description = "Nested records and a bean")
  public Forecast nested(Place place, Station station) {
    return null;
  }

  @McpTool(description = "A recursive type")
  public Node recursive(@McpArg(name = "tree", description = "The tree to walk") Node root) {
    return root;
  }
}
