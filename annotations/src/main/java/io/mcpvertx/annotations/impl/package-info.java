/**
 * How annotated methods become handlers: scanning, schema generation, argument binding and result conversion.
 * Internal.
 */
package io.mcpvertx.annotations.impl;
