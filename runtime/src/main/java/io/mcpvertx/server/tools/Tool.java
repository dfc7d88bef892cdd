package io.mcpvertx.server.tools;

import io.mcpvertx.protocol.ProtocolFeature;
import io.mcpvertx.protocol.ProtocolVersion;
import io.mcpvertx.server.content.Icon;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A tool's definition as clients see it in {@code tools/list}. Build one with {@link #builder(String)}.
 *
 * <p>{@code inputSchema} and {@code outputSchema} are JSON Schemas (2020-12 unless they say otherwise with
 * {@code $schema}); arguments are validated against the first before the handler runs, and structured results
 * against the second before they are sent.
 */
public record Tool(String name, String title, String description, JsonObject inputSchema, JsonObject outputSchema,
    ToolAnnotations annotations, List<Icon> icons, JsonObject meta, ToolExecution execution) {

  private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.\\-]{1,128}");

  /** The schema of a tool that takes no arguments. */
  public static JsonObject emptyObjectSchema() {
    return new JsonObject().put("type", "object").put("properties", new JsonObject());
  }

  public Tool {
    Objects.requireNonNull(name, "name");
    if (!NAME.matcher(name).matches()) {
      throw new IllegalArgumentException("Tool name must be 1-128 characters of A-Z, a-z, 0-9, '_', '-' or '.': " + name);
    }
    inputSchema = inputSchema == null ? emptyObjectSchema() : inputSchema;
    if (!"object".equals(inputSchema.getValue("type"))) {
      throw new IllegalArgumentException("Tool " + name + ": inputSchema must have type \"object\"");
    }
    if (outputSchema != null && !"object".equals(outputSchema.getValue("type"))) {
      throw new IllegalArgumentException("Tool " + name + ": outputSchema must have type \"object\"");
    }
    icons = icons == null ? List.of() : List.copyOf(icons);
    execution = execution == null ? ToolExecution.DIRECT : execution;
  }

  public static Builder builder(String name) {
    return new Builder(name);
  }

  /** The definition in the shape the given revision expects; members it does not know are left out. */
  public JsonObject toJson(ProtocolVersion version) {
    JsonObject json = new JsonObject().put("name", name);
    if (title != null && version.supports(ProtocolFeature.TITLES)) {
      json.put("title", title);
    }
    if (description != null) {
      json.put("description", description);
    }
    json.put("inputSchema", inputSchema);
    if (outputSchema != null && version.supports(ProtocolFeature.STRUCTURED_OUTPUT)) {
      json.put("outputSchema", outputSchema);
    }
    if (version.supports(ProtocolFeature.TOOL_ANNOTATIONS)) {
      ToolAnnotations effective = annotations;
      if (title != null && !version.supports(ProtocolFeature.TITLES)) {
        // Before 2025-06-18 the display title lived in the annotations.
        ToolAnnotations a = annotations == null ? new ToolAnnotations(null, null, null, null, null) : annotations;
        effective = new ToolAnnotations(a.title() == null ? title : a.title(), a.readOnlyHint(),
            a.destructiveHint(), a.idempotentHint(), a.openWorldHint());
      }
      if (effective != null) {
        json.put("annotations", effective.toJson());
      }
    }
    if (version.supports(ProtocolFeature.ICONS) && !icons.isEmpty()) {
      json.put("icons", Icon.toJson(icons));
    }
    if (meta != null && version.supports(ProtocolFeature.EXTENDED_META)) {
      json.put("_meta", meta);
    }
    // Absent means forbidden; only 2025-11-25 has the member (the extension lets the server decide).
    if (execution.allowsTasks() && version.supports(ProtocolFeature.TASKS)) {
      json.put("execution", execution.toJson());
    }
    return json;
  }

  /** Builds a {@link Tool}. */
  public static final class Builder {
    private final String name;
    private String title;
    private String description;
    private JsonObject inputSchema;
    private JsonObject outputSchema;
    private ToolAnnotations annotations;
    private final List<Icon> icons = new ArrayList<>();
    private JsonObject meta;
    private ToolExecution execution = ToolExecution.DIRECT;

    private Builder(String name) {
      this.name = name;
    }

    public Builder title(String title) {
      this.title = title;
      return this;
    }

    public Builder description(String description) {
      this.description = description;
      return this;
    }

    public Builder inputSchema(JsonObject inputSchema) {
      this.inputSchema = inputSchema;
      return this;
    }

    public Builder outputSchema(JsonObject outputSchema) {
      this.outputSchema = outputSchema;
      return this;
    }

    public Builder annotations(ToolAnnotations annotations) {
      this.annotations = annotations;
      return this;
    }

    public Builder icon(Icon icon) {
      this.icons.add(icon);
      return this;
    }

    public Builder meta(JsonObject meta) {
      this.meta = meta;
      return this;
    }

    /** How calls run: directly (the default) or as tasks. */
    public Builder execution(ToolExecution execution) {
      this.execution = execution;
      return this;
    }

    /** Shorthand for {@code execution(ToolExecution.task(support))}. */
    public Builder taskSupport(TaskSupport support) {
      this.execution = ToolExecution.task(support);
      return this;
    }

    public Tool build() {
      return new Tool(name, title, description, inputSchema, outputSchema, annotations, icons, meta, execution);
    }
  }

  /** Reads a definition written by {@link #toJson} (as tool verticles announce themselves). */
  public static Tool fromJson(JsonObject json) {
    JsonObject a = json.getJsonObject("annotations");
    ToolAnnotations annotations = a == null ? null : new ToolAnnotations(a.getString("title"),
        a.getBoolean("readOnlyHint"), a.getBoolean("destructiveHint"), a.getBoolean("idempotentHint"),
        a.getBoolean("openWorldHint"));
    return new Tool(json.getString("name"), json.getString("title"), json.getString("description"),
        json.getJsonObject("inputSchema"), json.getJsonObject("outputSchema"), annotations,
        Icon.fromJson(json.getJsonArray("icons")),
        json.getJsonObject("_meta"), executionFromJson(json.getValue("execution")));
  }

  private static ToolExecution executionFromJson(Object raw) {
    if (!(raw instanceof JsonObject json) || !(json.getValue("taskSupport") instanceof String support)) {
      return ToolExecution.DIRECT;
    }
    return TaskSupport.fromWireName(support).map(ToolExecution::task).orElse(ToolExecution.DIRECT);
  }
}
