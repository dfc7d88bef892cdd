package io.mcpvertx.verticles.impl;

import io.vertx.core.json.JsonObject;

/**
 * One feature verticle serving a feature, as it announced itself.
 *
 * @param address where it takes calls
 * @param node the cluster node it runs on; null when its Vert.x is not clustered
 * @param definition the feature's definition in its newest wire form
 */
record FeatureProvider(String address, String node, JsonObject definition) {
}
