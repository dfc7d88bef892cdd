package io.mcpvertx.protocol;

import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import static io.mcpvertx.protocol.ProtocolFeature.*;

/**
 * The protocol revisions the session engine speaks, and what each allows. Code asks
 * {@code version.supports(feature)}; it never compares revision strings.
 *
 * <p>2026-07-28 is the stateless generation: it has no sessions, so {@link #negotiate} never picks it; the
 * stateless engine serves it.
 */
public enum ProtocolVersion {
  V2024_11_05("2024-11-05", EnumSet.noneOf(ProtocolFeature.class)),
  V2025_03_26("2025-03-26", EnumSet.of(BATCHING, TOOL_ANNOTATIONS, AUDIO_CONTENT, COMPLETIONS, PROGRESS_MESSAGE)),
  V2025_06_18("2025-06-18", EnumSet.of(TOOL_ANNOTATIONS, AUDIO_CONTENT, COMPLETIONS, PROGRESS_MESSAGE,
      STRUCTURED_OUTPUT, ELICITATION_FORM, RESOURCE_LINKS, TITLES, COMPLETION_CONTEXT, EXTENDED_META,
      PROTOCOL_VERSION_HEADER)),
  V2025_11_25("2025-11-25", EnumSet.of(TOOL_ANNOTATIONS, AUDIO_CONTENT, COMPLETIONS, PROGRESS_MESSAGE,
      STRUCTURED_OUTPUT, ELICITATION_FORM, RESOURCE_LINKS, TITLES, COMPLETION_CONTEXT, EXTENDED_META,
      PROTOCOL_VERSION_HEADER, ICONS, ELICITATION_URL, ELICITATION_ENUM_SCHEMAS, SAMPLING_TOOLS,
      INPUT_VALIDATION_AS_TOOL_ERROR, TASKS,
      SSE_PRIMING, IMPLEMENTATION_DESCRIPTION)),
  V2026_07_28("2026-07-28", EnumSet.of(TOOL_ANNOTATIONS, AUDIO_CONTENT, COMPLETIONS, PROGRESS_MESSAGE,
      STRUCTURED_OUTPUT, ELICITATION_FORM, RESOURCE_LINKS, TITLES, COMPLETION_CONTEXT, EXTENDED_META,
      PROTOCOL_VERSION_HEADER, ICONS, ELICITATION_URL, ELICITATION_ENUM_SCHEMAS, SAMPLING_TOOLS,
      INPUT_VALIDATION_AS_TOOL_ERROR, IMPLEMENTATION_DESCRIPTION, STATELESS));

  /** The newest session revision, offered when an initialize asks for one we do not speak. */
  public static final ProtocolVersion LATEST = V2025_11_25;

  /**
   * What a Streamable HTTP server assumes when a request carries no {@code MCP-Protocol-Version} header and
   * nothing else tells the version (2025-06-18, basic/transports).
   */
  public static final ProtocolVersion HTTP_DEFAULT = V2025_03_26;

  private final String id;
  private final Set<ProtocolFeature> features;

  ProtocolVersion(String id, EnumSet<ProtocolFeature> features) {
    this.id = id;
    this.features = Collections.unmodifiableSet(features);
  }

  /** The revision string as it goes on the wire, e.g. {@code 2025-06-18}. */
  public String id() {
    return id;
  }

  public boolean supports(ProtocolFeature feature) {
    return features.contains(feature);
  }

  public static Optional<ProtocolVersion> fromId(String id) {
    if (id != null) {
      for (ProtocolVersion v : values()) {
        if (v.id.equals(id)) {
          return Optional.of(v);
        }
      }
    }
    return Optional.empty();
  }

  /**
   * Version negotiation as the lifecycle section defines it: a requested revision we speak is echoed back;
   * anything else gets the newest one we speak, and the client decides whether to go on.
   */
  public static ProtocolVersion negotiate(String requested) {
    return fromId(requested).filter(v -> !v.supports(STATELESS)).orElse(LATEST);
  }

  /** The revisions served with sessions (initialize), oldest first. */
  public static List<ProtocolVersion> sessionVersions() {
    return SESSION_VERSIONS;
  }

  private static final List<ProtocolVersion> SESSION_VERSIONS =
      Arrays.stream(values()).filter(v -> !v.supports(STATELESS)).toList();

  @Override
  public String toString() {
    return id;
  }
}
