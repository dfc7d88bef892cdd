package io.mcpvertx.jsonrpc;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.io.SerializedString;
import java.io.IOException;

/**
 * The member names of the last message a thread decoded, in the order they came, offered to the parser as the
 * names to expect in the next message.
 *
 * <p>Why: a client sends the same shape again and again, and Jackson reads an expected name by comparing its bytes
 * ({@link JsonParser#nextFieldName(com.fasterxml.jackson.core.SerializableString)}), where an unexpected one is
 * decoded and looked up in its symbol table, at a cost that grows with the name's length. The 2026-07-28
 * {@code _meta} names ({@code io.modelcontextprotocol/clientCapabilities}...) made that lookup most of the cost of
 * decoding a stateless request. A wrong guess costs one failed comparison, then the name is read as usual and
 * remembered for the next message.
 *
 * <p>Bounded: at most {@link #MAX_NAMES} names per thread, each at most {@link #MAX_NAME_CHARS} characters of
 * printable ASCII (any other name is read as usual and not remembered). Confined to its thread; one decode at a time.
 */
final class NameHints {

  static final int MAX_NAMES = 64;
  static final int MAX_NAME_CHARS = 64;

  private static final ThreadLocal<NameHints> HINTS = ThreadLocal.withInitial(NameHints::new);

  private final SerializedString[] names = new SerializedString[MAX_NAMES];
  /** Which name of the message comes next: one step per member and per object's end, in document order. */
  private int position;

  private NameHints() {
  }

  /** The thread's hints, from the start of a message. */
  static NameHints begin() {
    NameHints hints = HINTS.get();
    hints.position = 0;
    return hints;
  }

  /** The next member's name, or null at the end of the object: what {@link JsonParser#nextFieldName()} returns. */
  String nextFieldName(JsonParser parser) throws IOException {
    int at = position++;
    if (at >= MAX_NAMES) {
      return parser.nextFieldName();
    }
    SerializedString hint = names[at];
    if (hint == null) {
      return remember(at, parser.nextFieldName());
    }
    if (parser.nextFieldName(hint)) {
      return hint.getValue();
    }
    return remember(at, parser.currentToken() == JsonToken.FIELD_NAME ? parser.currentName() : null);
  }

  /**
   * Keeps a name as the guess for its place. Only printable ASCII: what protocol names are, and what Jackson can
   * always encode to compare (a name holding an escaped lone surrogate would make every later guess in that place
   * throw; the codec's fuzz test found it).
   */
  private String remember(int at, String name) {
    if (name != null && name.length() <= MAX_NAME_CHARS && isPrintableAscii(name)) {
      names[at] = new SerializedString(name);
    }
    return name;
  }

  private static boolean isPrintableAscii(String name) {
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (c < 0x20 || c > 0x7E) {
        return false;
      }
    }
    return true;
  }
}
