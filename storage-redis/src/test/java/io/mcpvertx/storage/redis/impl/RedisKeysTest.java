package io.mcpvertx.storage.redis.impl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.mcpvertx.spi.tasks.TaskIds;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RedisKeysTest {

  private final RedisKeys keys = new RedisKeys("app:");

  @Test
  void everyKeyAndChannelStartsWithThePrefix() {
    for (String key : List.of(keys.task("t"), keys.ownerTasks("o"), keys.ownerExpiries("o"), keys.ownerActive("o"),
        keys.taskChanges(), keys.eventStream("s", "a"), keys.eventStreams("s"), keys.session("s"), keys.lease("i"),
        keys.sessionClaim("s"), keys.executions("i"), keys.leaseInstances())) {
      assertTrue(key.startsWith("app:"), key);
    }
  }

  @Test
  void aTaskSharesItsOwnersHashTagAndSessionKeysTheirSessions() {
    String id = RedisKeys.newTaskId("someone");
    String tag = hashTag(keys.ownerActive("someone"));
    for (String key : List.of(keys.task(id), keys.abandonedTask(id), keys.ownerTasks("someone"),
        keys.ownerExpiries("someone"))) {
      assertEquals(tag, hashTag(key), key);
    }
    assertEquals("{" + RedisKeys.ownerSlotTag("someone") + "}", tag);
    assertEquals("{s1}", hashTag(keys.eventStream("s1", "p1")));
    assertEquals("{s1}", hashTag(keys.eventStreams("s1")));
    assertEquals("{s1}", hashTag(keys.session("s1")));
  }

  @Test
  void ownersSpreadOverTagsAndIdsWithoutATagGetOneOfTheirOwn() {
    Set<String> tags = new HashSet<>();
    for (int i = 0; i < 1_000; i++) {
      tags.add(RedisKeys.ownerSlotTag("owner-" + i));
    }
    assertTrue(tags.size() > 950, tags.size() + " tags for 1,000 owners");
    String plain = TaskIds.generate();
    assertEquals(RedisKeys.ownerSlotTag(plain), RedisKeys.taskSlotTag(plain));
    assertEquals("0a1f", RedisKeys.taskSlotTag(plain + ".0a1f"));
    assertEquals(RedisKeys.ownerSlotTag(plain + ".0A1F"), RedisKeys.taskSlotTag(plain + ".0A1F"));
    assertEquals(RedisKeys.ownerSlotTag("x}{"), RedisKeys.taskSlotTag(RedisKeys.newTaskId("x}{")));
  }

  @Test
  void leaseKeysShareOneHashTagWhateverTheirIds() {
    for (String key : List.of(keys.lease("i}{x"), keys.sessionClaim("{s}"), keys.executions("i"),
        keys.leaseInstances())) {
      assertEquals("{leases}", hashTag(key), key);
    }
    assertEquals(keys.leasePrefix() + RedisKeys.segment("i}{x"), keys.lease("i}{x"));
    assertEquals(keys.executionsPrefix() + RedisKeys.segment("i"), keys.executions("i"));
    assertNotEquals(keys.lease("i"), keys.executions("i"));
  }

  @Test
  void generatedIdsAppearAsTheyAre() {
    String id = RedisKeys.newTaskId("alice");
    assertEquals("app:task:{" + RedisKeys.ownerSlotTag("alice") + "}:t:" + id, keys.task(id));
    assertEquals("app:ev:{s-1}:s:p_2.x", keys.eventStream("s-1", "p_2.x"));
    assertEquals("app:session:{s-1}", keys.session("s-1"));
  }

  @Test
  void otherIdsAreEncodedSoTheyCannotForgeAnotherKey() {
    String forged = keys.eventStream("x}:s:y", "z");
    assertNotEquals(keys.eventStream("x", "y}:s:z"), forged);
    assertEquals(hashTag(forged), "{" + RedisKeys.segment("x}:s:y") + "}");
    assertTrue(RedisKeys.segment("a:b").startsWith("~"));
    assertFalse(RedisKeys.segment("a:b").contains(":"));
    assertNotEquals(RedisKeys.segment(""), "");
    assertNotEquals(RedisKeys.segment("~YQ"), RedisKeys.segment("a"));
  }

  @Test
  void ownersBecomeFixedLengthDigests() {
    assertEquals(32, RedisKeys.ownerTag("").length());
    assertEquals(32, RedisKeys.ownerTag("a very long principal name: with {braces} and : colons").length());
    assertNotEquals(RedisKeys.ownerTag("alice"), RedisKeys.ownerTag("bob"));
  }

  private static String hashTag(String key) {
    int open = key.indexOf('{');
    return key.substring(open, key.indexOf('}', open) + 1);
  }
}
