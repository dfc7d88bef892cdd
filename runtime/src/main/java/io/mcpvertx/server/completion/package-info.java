/**
 * Argument completion for prompts and resource-template variables.
 */
package io.mcpvertx.server.completion;
