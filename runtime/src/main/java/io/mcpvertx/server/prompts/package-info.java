/**
 * Prompts: definitions with arguments, handlers and the messages they render.
 */
package io.mcpvertx.server.prompts;
