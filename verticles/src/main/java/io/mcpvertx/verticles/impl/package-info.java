/**
 * Implementation of the verticles API; not for use by applications: the session verticle with the hooks a transport
 * sharing sessions uses, remote features (the protocol feature verticles speak, and the server side that calls
 * them), and the relay of resource updates; cluster membership in {@code cluster}.
 */
package io.mcpvertx.verticles.impl;
