package io.mcpvertx.verticles.impl.cluster;

import java.util.HashSet;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Which cluster nodes have left, worked out from successive readings of the cluster manager's member list.
 *
 * <p>A node has left when it was a member at the previous reading and is not at this one. A node that announced
 * features but was absent from two readings in a row has left too: it joined and left between two readings (or its
 * announcement arrived after it left). The last {@link #REMEMBERED} departed ids are kept to ignore announcements
 * that arrive late. A departed node can come back (a network partition healed, and the cluster manager merged the
 * two sides): it is then forgotten as departed, and reported as returned so its features can be asked for again.
 *
 * <p>{@link #check} runs on the bridge's context only; {@link #hasLeft} may be asked from any thread.
 */
public final class Departures {

  public static final int REMEMBERED = 1024;

  private final Set<String> left = ConcurrentHashMap.newKeySet();
  private final Queue<String> leftInOrder = new ConcurrentLinkedQueue<>();
  private Set<String> previous = Set.of();
  private Set<String> missingOnce = Set.of();

  /** What a reading found: the nodes that left since the previous one, and departed nodes that are back. */
  public record Changes(Set<String> gone, Set<String> returned) {
  }

  /**
   * Records a reading of the member list.
   *
   * @param members the nodes in the cluster now
   * @param announcing the nodes whose features are registered now
   */
  public Changes check(Set<String> members, Set<String> announcing) {
    Set<String> returned = new HashSet<>();
    if (!left.isEmpty()) {
      for (String node : members) {
        if (left.remove(node)) {
          leftInOrder.remove(node);
          returned.add(node);
        }
      }
    }
    Set<String> gone = new HashSet<>();
    for (String node : previous) {
      if (!members.contains(node)) {
        gone.add(node);
      }
    }
    Set<String> missing = new HashSet<>();
    for (String node : announcing) {
      if (!members.contains(node) && !gone.contains(node)) {
        if (missingOnce.contains(node)) {
          gone.add(node);
        } else {
          missing.add(node);
        }
      }
    }
    previous = Set.copyOf(members);
    missingOnce = missing;
    gone.forEach(this::remember);
    return new Changes(gone, returned);
  }

  /** Whether {@code node} has been seen to leave (among the last {@link #REMEMBERED} that did). */
  public boolean hasLeft(String node) {
    return node != null && left.contains(node);
  }

  private void remember(String node) {
    if (left.add(node)) {
      leftInOrder.add(node);
      if (leftInOrder.size() > REMEMBERED) {
        left.remove(leftInOrder.poll());
      }
    }
  }
}
