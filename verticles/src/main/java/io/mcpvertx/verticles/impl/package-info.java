/**
 * Implementation of the verticles API; not for use by applications. The session verticle with the hooks a transport
 * sharing sessions uses; remote features in {@code remote}, clustering in {@code cluster}.
 */
package io.mcpvertx.verticles.impl;
