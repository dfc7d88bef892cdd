/**
 * Implementation of the server API; not for use by applications.
 */
package io.mcpvertx.server.impl;
