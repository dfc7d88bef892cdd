package io.mcpvertx.verticles.http.impl;

import java.util.ArrayList;
import java.util.List;

/**
 * The POST exchanges under way on one HTTP verticle, for their heartbeats and a stopping server's hand-over.
 *
 * <p>Linked through the exchanges themselves: every request adds one and removes it again, and this way that is
 * two pointer writes each, with no hashing (an exchange's first identity hash is not free) and no allocation.
 * Confined to the verticle's context.
 */
final class OpenExchanges {

  private PostExchange head;
  private int size;

  void add(PostExchange exchange) {
    if (exchange.listed) {
      return;
    }
    exchange.previous = null;
    exchange.next = head;
    if (head != null) {
      head.previous = exchange;
    }
    head = exchange;
    exchange.listed = true;
    size++;
  }

  void remove(PostExchange exchange) {
    if (!exchange.listed) {
      return;
    }
    if (exchange.previous != null) {
      exchange.previous.next = exchange.next;
    } else {
      head = exchange.next;
    }
    if (exchange.next != null) {
      exchange.next.previous = exchange.previous;
    }
    exchange.previous = null;
    exchange.next = null;
    exchange.listed = false;
    size--;
  }

  /** A copy, for work that may end exchanges (and so remove them) while it goes through them. */
  List<PostExchange> snapshot() {
    List<PostExchange> copy = new ArrayList<>(size);
    for (PostExchange e = head; e != null; e = e.next) {
      copy.add(e);
    }
    return copy;
  }
}
