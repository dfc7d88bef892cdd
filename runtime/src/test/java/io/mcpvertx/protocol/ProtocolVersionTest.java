package io.mcpvertx.protocol;

import static io.mcpvertx.protocol.ProtocolFeature.*;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class ProtocolVersionTest {

  private static Set<ProtocolFeature> featuresOf(ProtocolVersion version) {
    return Arrays.stream(ProtocolFeature.values()).filter(version::supports)
        .collect(Collectors.toCollection(() -> EnumSet.noneOf(ProtocolFeature.class)));
  }

  @Test
  void echoesEveryKnownVersion() {
    for (String id : List.of("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")) {
      assertEquals(id, ProtocolVersion.negotiate(id).id());
    }
  }

  @Test
  void offersTheLatestForAnUnknownVersion() {
    assertEquals(ProtocolVersion.V2025_11_25, ProtocolVersion.LATEST);
    assertEquals(ProtocolVersion.LATEST, ProtocolVersion.negotiate("1.0.0"));
    assertEquals(ProtocolVersion.LATEST, ProtocolVersion.negotiate("2024-10-07"));
    assertEquals(ProtocolVersion.LATEST, ProtocolVersion.negotiate(""));
    assertEquals(ProtocolVersion.LATEST, ProtocolVersion.negotiate(null));
  }

  @Test
  void offers20251125WhenInitializeAsksForTheStatelessRevision() {
    assertEquals(ProtocolVersion.V2025_11_25, ProtocolVersion.negotiate("2026-07-28"));
  }

  @Test
  void matchesVersionIdsExactly() {
    assertEquals(Optional.empty(), ProtocolVersion.fromId("2025-06-18 "));
    assertEquals(Optional.empty(), ProtocolVersion.fromId("V2025_06_18"));
    assertEquals(Optional.of(ProtocolVersion.V2025_06_18), ProtocolVersion.fromId("2025-06-18"));
    assertEquals("2025-06-18", ProtocolVersion.V2025_06_18.toString());
  }

  @Test
  void batchingOnlyIn20250326() {
    for (ProtocolVersion version : ProtocolVersion.values()) {
      assertEquals(version == ProtocolVersion.V2025_03_26, version.supports(BATCHING), version.id());
    }
  }

  @Test
  void version20241105HasNoOptionalFeatures() {
    assertTrue(featuresOf(ProtocolVersion.V2024_11_05).isEmpty());
  }

  @Test
  void version20250326AddsAnnotationsAudioCompletionsProgressMessageAndBatching() {
    assertEquals(EnumSet.of(BATCHING, TOOL_ANNOTATIONS, AUDIO_CONTENT, COMPLETIONS, PROGRESS_MESSAGE),
        featuresOf(ProtocolVersion.V2025_03_26));
  }

  @Test
  void version20250618DropsBatchingAndAddsStructuredOutputElicitationTitles() {
    Set<ProtocolFeature> expected = EnumSet.of(TOOL_ANNOTATIONS, AUDIO_CONTENT, COMPLETIONS, PROGRESS_MESSAGE,
        STRUCTURED_OUTPUT, ELICITATION_FORM, RESOURCE_LINKS, TITLES, COMPLETION_CONTEXT, EXTENDED_META,
        PROTOCOL_VERSION_HEADER);
    assertEquals(expected, featuresOf(ProtocolVersion.V2025_06_18));
  }

  @Test
  void version20251125AddsIconsUrlElicitationSamplingToolsTasks() {
    Set<ProtocolFeature> added = EnumSet.copyOf(featuresOf(ProtocolVersion.V2025_11_25));
    added.removeAll(featuresOf(ProtocolVersion.V2025_06_18));
    assertEquals(EnumSet.of(ICONS, ELICITATION_URL, ELICITATION_ENUM_SCHEMAS, SAMPLING_TOOLS, INPUT_VALIDATION_AS_TOOL_ERROR, TASKS,
        SSE_PRIMING, IMPLEMENTATION_DESCRIPTION), added);
    assertTrue(featuresOf(ProtocolVersion.V2025_11_25).containsAll(featuresOf(ProtocolVersion.V2025_06_18)));
  }

  @Test
  void featuresOnlyGrowAfter20250326ExceptBatching() {
    ProtocolVersion[] versions = ProtocolVersion.sessionVersions().toArray(new ProtocolVersion[0]);
    for (int i = 1; i < versions.length; i++) {
      Set<ProtocolFeature> earlier = EnumSet.copyOf(featuresOf(versions[i - 1]));
      earlier.remove(BATCHING);
      assertTrue(featuresOf(versions[i]).containsAll(earlier), versions[i] + " lost a feature of " + versions[i - 1]);
    }
  }

  @Test
  void versionsAreDeclaredOldestFirst() {
    ProtocolVersion[] versions = ProtocolVersion.values();
    for (int i = 1; i < versions.length; i++) {
      assertTrue(versions[i - 1].id().compareTo(versions[i].id()) < 0);
    }
    List<ProtocolVersion> sessions = ProtocolVersion.sessionVersions();
    assertEquals(ProtocolVersion.LATEST, sessions.get(sessions.size() - 1));
  }

  @Test
  void version20260728IsStatelessWithoutSessionOnlyFeatures() {
    Set<ProtocolFeature> features = featuresOf(ProtocolVersion.V2026_07_28);
    assertTrue(features.contains(STATELESS));
    assertFalse(features.contains(TASKS), "2026-07-28 has tasks only as an extension");
    assertFalse(features.contains(SSE_PRIMING), "2026-07-28 streams are not resumable");
    assertFalse(features.contains(BATCHING));
    assertTrue(ProtocolVersion.sessionVersions().stream().noneMatch(v -> v.supports(STATELESS)));
  }

  @Test
  void negotiationNeverPicksTheStatelessRevision() {
    assertEquals(ProtocolVersion.LATEST, ProtocolVersion.negotiate("2026-07-28"));
  }

  @Test
  void assumes20250326ForHttpWithoutVersionHeader() {
    assertEquals(ProtocolVersion.V2025_03_26, ProtocolVersion.HTTP_DEFAULT);
    assertFalse(ProtocolVersion.HTTP_DEFAULT.supports(PROTOCOL_VERSION_HEADER));
  }
}
