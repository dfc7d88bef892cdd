package io.mcpvertx.protocol;


/** Something a protocol revision allows or requires; {@link ProtocolVersion} says which revision has which. */
public enum ProtocolFeature {
  /** JSON-RPC batches must be accepted (2025-03-26 only). */
  BATCHING,
  /** Tool annotations (readOnlyHint, destructiveHint, ...). */
  TOOL_ANNOTATIONS,
  /** Audio content blocks. */
  AUDIO_CONTENT,
  /** The {@code completions} server capability (2024-11-05 had {@code completion/complete} without one). */
  COMPLETIONS,
  /** The {@code message} field on progress notifications. */
  PROGRESS_MESSAGE,
  /** {@code outputSchema} on tools and {@code structuredContent} on results. */
  STRUCTURED_OUTPUT,
  /** {@code elicitation/create} in form mode. */
  ELICITATION_FORM,
  /** {@code resource_link} content blocks. */
  RESOURCE_LINKS,
  /** {@code title} on tools, resources, prompts and implementations. */
  TITLES,
  /** {@code context.arguments} on completion requests. */
  COMPLETION_CONTEXT,
  /** {@code _meta} on content, resources and prompts beyond requests and results. */
  EXTENDED_META,
  /** Icons on tools, resources, prompts and implementations. */
  ICONS,
  /** URL-mode elicitation and {@code notifications/elicitation/complete}. */
  ELICITATION_URL,
  /**
   * Titled single-select, multi-select and legacy-titled enum schemas in elicitation forms (SEP-1330); before
   * 2025-11-25 a form field is a string, number, boolean or plain {@code enum} string.
   */
  ELICITATION_ENUM_SCHEMAS,
  /** {@code tools} and {@code toolChoice} in sampling requests. */
  SAMPLING_TOOLS,
  /** Tool input-validation failures are tool results with {@code isError}, not protocol errors. */
  INPUT_VALIDATION_AS_TOOL_ERROR,
  /** Task-augmented requests (SEP-1686). */
  TASKS,
  /** SSE priming events and {@code retry} before a server-initiated close. */
  SSE_PRIMING,
  /** {@code MCP-Protocol-Version} on every HTTP request after initialization. */
  PROTOCOL_VERSION_HEADER,
  /** The {@code description} field on {@link ProtocolVersion} implementation info. */
  IMPLEMENTATION_DESCRIPTION,
  /**
   * The stateless generation (2026-07-28): no sessions; per-request {@code _meta}; {@code resultType} on every
   * result; multi round-trip requests instead of server-to-client requests; {@code subscriptions/listen}.
   */
  STATELESS
}
