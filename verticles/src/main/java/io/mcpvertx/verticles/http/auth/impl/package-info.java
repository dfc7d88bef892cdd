/**
 * Implementation of the endpoint's authorization: discovery, token validation on vertx-auth-oauth2, the checks it
 * does not do itself, scope policy and challenges. Not an API.
 */
package io.mcpvertx.verticles.http.auth.impl;
