/**
 * A tool written as a verticle, and a server that exposes it through the event bus.
 */
package io.mcpvertx.examples.verticle;
