/**
 * Implementation of the verticles API; not for use by applications.
 */
package io.mcpvertx.verticles.impl;
