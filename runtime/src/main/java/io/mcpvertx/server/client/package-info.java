/**
 * What the client declares and what the server may ask of it: elicitation, sampling, roots, logging levels.
 */
package io.mcpvertx.server.client;
