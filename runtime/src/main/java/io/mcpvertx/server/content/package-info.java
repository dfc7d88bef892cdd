/**
 * Content blocks and resource contents, serialised for the negotiated protocol revision.
 */
package io.mcpvertx.server.content;
