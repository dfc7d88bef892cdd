package io.mcpvertx.testing.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.buffer.Buffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The tests' SSE parser, byte by byte: the other tests trust what it reports. */
class SseParserTest {

  private static final String STREAM = "id: p1_1\ndata: \n\n"
      + ": keep-alive\n\n"
      + "id: p1_2\r\nevent: message\r\ndata: {\"a\":\"é€\"}\r\n\r\n"
      + "data:first\rdata: second\r\r"
      + "retry: 1500\n\n";

  private static List<SseParser.Event> byteByByte(byte[] bytes) {
    List<SseParser.Event> events = new ArrayList<>();
    SseParser parser = new SseParser(events::add);
    for (byte b : bytes) {
      parser.feed(Buffer.buffer(new byte[] {b}));
    }
    return events;
  }

  @Test
  void parsesEventsWhateverTheChunkingAndLineEndings() {
    byte[] bytes = STREAM.getBytes(StandardCharsets.UTF_8);
    List<SseParser.Event> whole = SseParser.parse(Buffer.buffer(bytes));
    assertEquals(whole, byteByByte(bytes));
    assertEquals(4, whole.size(), whole::toString);
    assertTrue(whole.get(0).isPriming());
    assertEquals("p1_1", whole.get(0).id());
    assertEquals(new SseParser.Event("p1_2", "message", "{\"a\":\"é€\"}", -1), whole.get(1));
    assertEquals("é€", whole.get(1).message().getString("a"));
    assertEquals("first\nsecond", whole.get(2).data());
    assertEquals(new SseParser.Event(null, null, null, 1500), whole.get(3));
  }

  @Test
  void countsCommentsAndHoldsAnUnfinishedEvent() {
    List<SseParser.Event> events = new ArrayList<>();
    SseParser parser = new SseParser(events::add);
    parser.feed(Buffer.buffer(": one\n: two\n\nid: x\ndata: {}\n"));
    assertEquals(2, parser.comments());
    assertEquals(List.of(), events);
    parser.feed(Buffer.buffer("\n"));
    assertEquals(List.of(new SseParser.Event("x", null, "{}", -1)), events);
  }
}
