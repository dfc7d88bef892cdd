/**
 * Implementation of the stdio transport.
 */
package io.mcpvertx.verticles.stdio.impl;
