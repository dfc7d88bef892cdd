package io.mcpvertx.verticles.impl.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import org.junit.jupiter.api.Test;

class DeparturesTest {

  @Test
  void aMemberMissingFromTheNextReadingHasLeft() {
    Departures departures = new Departures();
    assertEquals(Set.of(), departures.check(Set.of("a", "b", "c"), Set.of("b")).gone());
    assertEquals(Set.of("b", "c"), departures.check(Set.of("a"), Set.of("b")).gone());
    assertTrue(departures.hasLeft("b"));
    assertTrue(departures.hasLeft("c"));
    assertFalse(departures.hasLeft("a"));
    // Reported once.
    assertEquals(Set.of(), departures.check(Set.of("a"), Set.of()).gone());
  }

  @Test
  void anAnnouncingNodeNeverSeenIsGivenOneReadingToAppear() {
    Departures departures = new Departures();
    assertEquals(Set.of(), departures.check(Set.of("a"), Set.of("late")).gone());
    assertFalse(departures.hasLeft("late"));
    assertEquals(Set.of(), departures.check(Set.of("a", "late"), Set.of("late")).gone());
    assertEquals(Set.of(), departures.check(Set.of("a", "late"), Set.of("late")).gone());
    assertFalse(departures.hasLeft("late"));
  }

  @Test
  void anAnnouncingNodeAbsentFromTwoReadingsHasLeft() {
    Departures departures = new Departures();
    assertEquals(Set.of(), departures.check(Set.of("a"), Set.of("ghost")).gone());
    assertEquals(Set.of("ghost"), departures.check(Set.of("a"), Set.of("ghost")).gone());
    assertTrue(departures.hasLeft("ghost"));
  }

  @Test
  void remembersABoundedNumberOfDepartedNodes() {
    Departures departures = new Departures();
    // Each reading sees only the next node: REMEMBERED + 1 nodes leave.
    for (int i = 0; i <= Departures.REMEMBERED + 1; i++) {
      departures.check(Set.of("n" + i), Set.of());
    }
    assertFalse(departures.hasLeft("n0"), "the oldest departure is forgotten");
    assertTrue(departures.hasLeft("n1"));
    assertTrue(departures.hasLeft("n" + Departures.REMEMBERED));
    assertFalse(departures.hasLeft("n" + (Departures.REMEMBERED + 1)), "still a member");
    assertFalse(departures.hasLeft(null));
  }

  @Test
  void aDepartedNodeThatComesBackIsReportedAndNoLongerTakenForGone() {
    Departures departures = new Departures();
    departures.check(Set.of("a", "split"), Set.of("split"));
    assertEquals(Set.of("split"), departures.check(Set.of("a"), Set.of()).gone());
    Departures.Changes healed = departures.check(Set.of("a", "split"), Set.of());
    assertEquals(Set.of("split"), healed.returned());
    assertEquals(Set.of(), healed.gone());
    assertFalse(departures.hasLeft("split"));
    assertEquals(Set.of(), departures.check(Set.of("a", "split"), Set.of("split")).returned());
  }
}
