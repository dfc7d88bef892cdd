/**
 * Features served by verticles anywhere on the event bus: the protocol feature verticles speak, the server side
 * that registers what they announce and calls them, and the request context a call carries to its verticle.
 */
package io.mcpvertx.verticles.impl.remote;
