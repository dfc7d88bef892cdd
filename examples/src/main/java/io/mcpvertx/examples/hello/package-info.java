/**
 * The smallest useful server: a tool, a resource template and a prompt over stdio.
 */
package io.mcpvertx.examples.hello;
