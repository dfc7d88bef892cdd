/**
 * Clustered HTTP sessions: which instance runs each session (claims on the lease store, routes to the owner over
 * the clustered event bus, failover when an owner stops) and stream ids that name their producer.
 */
package io.mcpvertx.verticles.http.impl.cluster;
