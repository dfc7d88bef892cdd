/**
 * The HTTP transport's sessions of the 2025 generation: the table of one endpoint, what it knows of each session,
 * the shared session store's records, and where sessions publish their streams' events.
 */
package io.mcpvertx.verticles.http.impl.session;
