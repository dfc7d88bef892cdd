package io.mcpvertx.spi.leases.memory;

import io.mcpvertx.spi.leases.LeaseStore;
import io.mcpvertx.testing.stores.LeaseStoreContract;

class InMemoryLeaseStoreTest extends LeaseStoreContract {

  private static final InMemoryLeaseStore STORE = InMemoryLeaseStore.create();

  @Override
  protected LeaseStore store() {
    return STORE;
  }
}
