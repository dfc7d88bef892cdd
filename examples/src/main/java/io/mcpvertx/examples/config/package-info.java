/**
 * Configuration of the examples jar: flags, environment and a JSON config file, and the stores (in memory or on
 * Redis) they choose.
 */
package io.mcpvertx.examples.config;
