package io.mcpvertx.spi.leases;

/**
 * The instance's lease lapsed or was released: other instances may already have claimed what it owned, so it must
 * stop serving its sessions and register again under a new id.
 */
public final class LeaseLostException extends RuntimeException {

  private final String instanceId;

  public LeaseLostException(String instanceId) {
    super("the lease of instance " + instanceId + " is gone", null, false, false);
    this.instanceId = instanceId;
  }

  public String instanceId() {
    return instanceId;
  }
}
