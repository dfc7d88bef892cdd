/** The Micrometer implementation of the metrics module; internal. */
package io.mcpvertx.metrics.impl;
