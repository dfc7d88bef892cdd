/**
 * Resources: concrete resources, URI templates, their handlers and read results.
 */
package io.mcpvertx.server.resources;
