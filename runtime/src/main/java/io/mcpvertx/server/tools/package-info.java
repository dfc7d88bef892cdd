/**
 * Tools: definitions, handlers (non-blocking and blocking) and results.
 */
package io.mcpvertx.server.tools;
