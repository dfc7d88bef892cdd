package io.mcpvertx.verticles.http.impl.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.protocol.ProtocolVersion;
import io.mcpvertx.server.Principal;
import io.mcpvertx.spi.sessions.SessionRecord;
import io.mcpvertx.verticles.http.impl.session.HttpSession.State;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The states of an HTTP session only move forward, and a stored record admits its own principal only. */
class HttpSessionTest {

  private static final Principal ALICE = new Principal("https://as.example", "alice", Set.of());

  private static SessionRecord record(String state, Principal owner) {
    return new SessionRecord("s-1", state, "2025-11-25", null, null, null, owner == null ? null : owner.toJson(), 0);
  }

  @Test
  void aNewSessionAwaitsInitializedThenIsReady() {
    HttpSession session = HttpSession.created("s-1", null, 0);
    assertEquals(State.AWAITING_INITIALIZED, session.state());
    session.initialized();
    assertEquals(State.READY, session.state());
    session.initialized();
    assertEquals(State.READY, session.state());
  }

  @Test
  void closesOnceAndStaysClosed() {
    HttpSession session = HttpSession.created("s-1", null, 0);
    assertTrue(session.close(false));
    assertFalse(session.close(true), "closed already: the reason does not change");
    assertEquals(State.CLOSED, session.state());
    session.initialized();
    assertEquals(State.CLOSED, session.state());
    assertTrue(session.isClosed());
  }

  @Test
  void aSessionWhoseInstanceStoppedIsClosedAsOwnerLost() {
    HttpSession session = HttpSession.created("s-1", null, 0);
    session.initialized();
    assertTrue(session.close(true));
    assertEquals(State.OWNER_LOST, session.state());
    assertTrue(session.isClosed());
  }

  @Test
  void closersRunOnceWhenAsked() {
    HttpSession session = HttpSession.created("s-1", null, 0);
    List<String> ran = new ArrayList<>();
    session.onClose("a", () -> ran.add("a"));
    session.onClose("b", () -> ran.add("b"));
    session.removeOnClose("b");
    session.runClosers();
    session.runClosers();
    assertEquals(List.of("a"), ran);
  }

  @Test
  void oneGetPerStream() {
    HttpSession session = HttpSession.created("s-1", null, 0);
    assertTrue(session.follow(HttpSession.STANDALONE_STREAM));
    assertFalse(session.follow(HttpSession.STANDALONE_STREAM));
    session.unfollow(HttpSession.STANDALONE_STREAM);
    assertTrue(session.follow(HttpSession.STANDALONE_STREAM));
  }

  @Test
  void aStoredRecordIsRestoredForItsOwnPrincipalOnly() {
    HttpSession restored = HttpSession.fromRecord(record("OPERATING", ALICE), ALICE, 0, null);
    assertNotNull(restored);
    assertEquals(State.READY, restored.state());
    assertEquals(ProtocolVersion.V2025_11_25, restored.version());
    assertTrue(restored.ownedBy(ALICE));
    assertFalse(restored.remote());
    assertTrue(restored.recordWritten());
    assertNull(HttpSession.fromRecord(record("OPERATING", ALICE), null, 0, null), "anonymous caller");
    assertNull(HttpSession.fromRecord(record("OPERATING", null), ALICE, 0, null), "another principal's (none)");
  }

  @Test
  void aRecordAwaitingInitializedStaysSoAndARouteKnowsItsOwner() {
    HttpSession route = HttpSession.fromRecord(record("AWAITING_INITIALIZED", null), null, 0, "instance-b");
    assertEquals(State.AWAITING_INITIALIZED, route.state());
    assertTrue(route.remote());
    assertEquals("instance-b", route.ownerInstance());
  }

  @Test
  void aNewerRecordWaitsUntilItIsTheOneStored() {
    HttpSession session = HttpSession.created("s-1", null, 0);
    SessionRecord first = record("OPERATING", null);
    SessionRecord second = record("OPERATING", null);
    session.recordWriting(first);
    session.recordWriting(second);
    session.recordStored(first);
    assertFalse(session.recordWritten(), "the store has an older record than the session's");
    session.recordStored(second);
    assertTrue(session.recordWritten());
  }

  @Test
  void theStoreHearsOfUseAtMostOncePerInterval() {
    HttpSession session = HttpSession.created("s-1", null, 1_000);
    assertFalse(session.storeTouchDue(1_500, 1_000));
    assertTrue(session.storeTouchDue(2_000, 1_000));
    assertFalse(session.storeTouchDue(2_999, 1_000));
    assertTrue(session.storeTouchDue(3_000, 1_000));
  }
}
