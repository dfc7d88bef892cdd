package io.mcpvertx.verticles.stdio;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.vertx.core.buffer.Buffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class LineFramerTest {

  /** Records what a framer emits. */
  private static final class Frames {
    final List<Buffer> buffers = new ArrayList<>();
    int oversize;
    final LineFramer framer;

    Frames(int maxLineBytes) {
      framer = new LineFramer(maxLineBytes, buffers::add, () -> oversize++);
    }

    Frames feed(String text) {
      byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
      framer.feed(bytes, 0, bytes.length);
      return this;
    }

    Frames feedByteByByte(String text) {
      byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
      for (int i = 0; i < bytes.length; i++) {
        framer.feed(bytes, i, 1);
      }
      return this;
    }

    Frames feedInChunks(String text, int chunk) {
      byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
      for (int i = 0; i < bytes.length; i += chunk) {
        framer.feed(bytes, i, Math.min(chunk, bytes.length - i));
      }
      return this;
    }

    List<String> lines() {
      return buffers.stream().map(b -> b.toString(StandardCharsets.UTF_8)).toList();
    }
  }

  private static final String THREE_MESSAGES = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n"
      + "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\r\n"
      + "{\"text\":\"h\u00e9llo \u2603\"}\n";

  private static final List<String> THREE_LINES = List.of("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}",
      "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}", "{\"text\":\"h\u00e9llo \u2603\"}");

  @Test
  void emitsEachWholeLineWithoutItsNewline() {
    Frames frames = new Frames(1024).feed("first\n").feed("second\n");
    assertEquals(List.of("first", "second"), frames.lines());
    assertEquals(0, frames.oversize);
  }

  @Test
  void emitsTheSameLinesWhenFedOneByteAtATime() {
    assertEquals(THREE_LINES, new Frames(1024).feedByteByByte(THREE_MESSAGES).lines());
  }

  @Test
  void emitsTheSameLinesWhateverTheChunkSize() {
    for (int chunk = 1; chunk <= THREE_MESSAGES.length() + 1; chunk++) {
      assertEquals(THREE_LINES, new Frames(1024).feedInChunks(THREE_MESSAGES, chunk).lines(), "chunk " + chunk);
    }
  }

  @Test
  void joinsALineSplitAcrossChunks() {
    Frames frames = new Frames(1024).feed("{\"jsonrpc\":").feed("\"2.0\",").feed("\"method\":\"x\"}");
    assertEquals(List.of(), frames.lines());
    frames.feed("\n");
    assertEquals(List.of("{\"jsonrpc\":\"2.0\",\"method\":\"x\"}"), frames.lines());
  }

  @Test
  void emitsSeveralLinesFromOneChunkAndKeepsTheRest() {
    Frames frames = new Frames(1024).feed("a\nb\nc\nhalf");
    assertEquals(List.of("a", "b", "c"), frames.lines());
    frames.feed("-done\n");
    assertEquals(List.of("a", "b", "c", "half-done"), frames.lines());
  }

  @Test
  void readsALineFromTheMiddleOfTheGivenArray() {
    Frames frames = new Frames(1024);
    byte[] bytes = "xxxhello\nyyy".getBytes(StandardCharsets.US_ASCII);
    frames.framer.feed(bytes, 3, 6);
    assertEquals(List.of("hello"), frames.lines());
  }

  @Test
  void dropsTheCarriageReturnOfCrlfEvenWhenSplitFromItsNewline() {
    Frames frames = new Frames(1024).feed("one\r\n").feed("two\r").feed("\nthree\r\n");
    assertEquals(List.of("one", "two", "three"), frames.lines());
  }

  @Test
  void keepsACarriageReturnInsideALine() {
    assertEquals(List.of("a\rb"), new Frames(1024).feed("a\rb\n").lines());
  }

  @Test
  void skipsBlankLines() {
    Frames frames = new Frames(1024).feed("\n\n   \n\t\r\n\r\nx\n\n  y \n");
    assertEquals(List.of("x", "  y "), frames.lines());
  }

  @Test
  void acceptsALineOfExactlyTheLimit() {
    Frames frames = new Frames(8).feed("12345678\n");
    assertEquals(List.of("12345678"), frames.lines());
    assertEquals(0, frames.oversize);
  }

  @Test
  void reportsALineOverTheLimitOnceAndServesTheNextLine() {
    Frames frames = new Frames(8).feed("123456789\nok\n");
    assertEquals(1, frames.oversize);
    assertEquals(List.of("ok"), frames.lines());
  }

  @Test
  void reportsAnOversizeLineOnceHoweverItIsChunked() {
    String input = "before\n" + "x".repeat(100) + "\nafter\n";
    for (int chunk = 1; chunk <= input.length(); chunk++) {
      Frames frames = new Frames(16).feedInChunks(input, chunk);
      assertEquals(1, frames.oversize, "chunk " + chunk);
      assertEquals(List.of("before", "after"), frames.lines(), "chunk " + chunk);
    }
  }

  @Test
  void skipsTheOversizeLineUpToItsNewlineEvenWhenThatComesMuchLater() {
    Frames frames = new Frames(16).feed("y".repeat(20));
    assertEquals(1, frames.oversize);
    for (int i = 0; i < 50; i++) {
      frames.feed("z".repeat(1000));
    }
    frames.feed("still the same line\nnext\n");
    assertEquals(1, frames.oversize);
    assertEquals(List.of("next"), frames.lines());
  }

  @Test
  void reportsEachOversizeLine() {
    Frames frames = new Frames(4).feed("aaaaaa\nbbbbbb\ncc\ndddddd\n");
    assertEquals(3, frames.oversize);
    assertEquals(List.of("cc"), frames.lines());
  }

  @Test
  void finishEmitsAnUnterminatedLastLine() {
    Frames frames = new Frames(1024).feed("a\nlast");
    assertTrue(frames.framer.hasPartialLine());
    frames.framer.finish();
    assertEquals(List.of("a", "last"), frames.lines());
    assertFalse(frames.framer.hasPartialLine());
  }

  @Test
  void finishEmitsNothingAfterATerminatedLine() {
    Frames frames = new Frames(1024).feed("a\n");
    assertFalse(frames.framer.hasPartialLine());
    frames.framer.finish();
    assertEquals(List.of("a"), frames.lines());
  }

  @Test
  void finishDropsATrailingCarriageReturnAndSkipsABlankRemainder() {
    Frames frames = new Frames(1024).feed("last\r");
    frames.framer.finish();
    frames.feed("  ");
    frames.framer.finish();
    assertEquals(List.of("last"), frames.lines());
  }

  @Test
  void finishDropsAnUnterminatedOversizeLineWithoutReportingItAgain() {
    Frames frames = new Frames(4).feed("ok\ntoo long");
    frames.framer.finish();
    assertEquals(1, frames.oversize);
    assertEquals(List.of("ok"), frames.lines());
  }

  @Test
  void anEmittedLineIsNotChangedByLaterInput() {
    Frames frames = new Frames(1024).feed("first\n");
    Buffer first = frames.buffers.get(0);
    frames.feed("XXXXXXXXXXXX\nsecond\n");
    assertEquals("first", first.toString(StandardCharsets.UTF_8));
  }

  @Test
  void linesAfterAHugeLineComeOutIntact() {
    int huge = 3 * 1024 * 1024;
    char[] fill = new char[huge];
    Arrays.fill(fill, 'h');
    String hugeLine = new String(fill);
    Frames frames = new Frames(4 * 1024 * 1024).feedInChunks(hugeLine + "\nsmall\n", 16 * 1024);
    frames.feed("tail");
    frames.framer.finish();
    assertEquals(3, frames.buffers.size());
    assertEquals(huge, frames.buffers.get(0).length());
    assertEquals(List.of("small", "tail"), frames.lines().subList(1, 3));
  }

  @Test
  void linesAfterAnOversizeLineComeOutIntact() {
    Frames frames = new Frames(64 * 1024).feedInChunks("q".repeat(200_000) + "\n", 16 * 1024);
    frames.feed("{\"after\":true}\n");
    assertEquals(1, frames.oversize);
    assertEquals(List.of("{\"after\":true}"), frames.lines());
  }
}
