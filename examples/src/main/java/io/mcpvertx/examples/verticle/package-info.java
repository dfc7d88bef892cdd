/**
 * A tool written as a verticle (with the builder, {@code ClockToolVerticle}, or with annotations,
 * {@code AnnotatedClockVerticle}), and a server that exposes it through the event bus.
 */
package io.mcpvertx.examples.verticle;
