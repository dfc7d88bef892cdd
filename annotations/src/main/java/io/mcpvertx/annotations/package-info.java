/**
 * Handlers as annotated methods: {@link io.mcpvertx.annotations.McpTool}, {@link io.mcpvertx.annotations.McpPrompt},
 * {@link io.mcpvertx.annotations.McpResource}, {@link io.mcpvertx.annotations.McpResourceTemplate} and
 * {@link io.mcpvertx.annotations.McpCompletion} on the methods of a plain object, registered with
 * {@link io.mcpvertx.annotations.AnnotatedFeatures#register}, or of an {@link io.mcpvertx.annotations.AnnotatedVerticle}
 * that serves them to every server of a cluster. Every definition is checked, and every schema generated, when the
 * object is registered, so a mistake fails there with the class and method named, never at call time.
 */
package io.mcpvertx.annotations;
