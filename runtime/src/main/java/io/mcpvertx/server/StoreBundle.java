package io.mcpvertx.server;

import io.mcpvertx.spi.EventStore;
import io.mcpvertx.spi.leases.LeaseStore;
import io.mcpvertx.spi.sessions.SessionStore;
import io.mcpvertx.spi.tasks.TaskStore;
import java.util.Optional;

/** The {@link McpStores} a {@link McpStores.Builder} assembles. */
record StoreBundle(TaskStore tasks, EventStore events, Optional<SessionStore> sessions, LeaseStore leases)
    implements McpStores {
}
