package io.mcpvertx.jsonrpc;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Well-formed UTF-8 as RFC 3629 defines it: no overlong forms ({@code C0 AF} for "/"), no encoded surrogates, nothing
 * beyond U+10FFFF. Jackson decodes some ill-formed sequences into characters instead of refusing them, and an
 * overlong "/" or "." that reaches a handler is how path filters are bypassed; so frames are checked before they
 * are parsed. ASCII-only frames, the common case, cost one pass over the bytes.
 */
final class Utf8 {

  private static final VarHandle WORDS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.nativeOrder());
  private static final long HIGH_BITS = 0x8080808080808080L;

  private Utf8() {
  }

  /** The index of the first byte of the first ill-formed sequence in {@code bytes}, or -1 when it is all well formed. */
  static int firstIllFormed(byte[] bytes) {
    int i = 0;
    int n = bytes.length;
    while (i < n) {
      // Eight ASCII bytes at a time: a frame is mostly ASCII, and a word without a high bit needs no more checks.
      while (i + Long.BYTES <= n && ((long) WORDS.get(bytes, i) & HIGH_BITS) == 0) {
        i += Long.BYTES;
      }
      if (i >= n) {
        break;
      }
      int b = bytes[i];
      if (b >= 0) {
        i++;
        continue;
      }
      b &= 0xFF;
      int length;
      int min2 = 0x80;
      int max2 = 0xBF;
      if (b >= 0xC2 && b <= 0xDF) {
        length = 2;
      } else if (b >= 0xE0 && b <= 0xEF) {
        length = 3;
        if (b == 0xE0) {
          min2 = 0xA0; // below: overlong
        } else if (b == 0xED) {
          max2 = 0x9F; // above: UTF-16 surrogates
        }
      } else if (b >= 0xF0 && b <= 0xF4) {
        length = 4;
        if (b == 0xF0) {
          min2 = 0x90; // below: overlong
        } else if (b == 0xF4) {
          max2 = 0x8F; // above: beyond U+10FFFF
        }
      } else {
        return i; // a continuation byte out of place, C0/C1 (overlong), or F5..FF
      }
      if (i + length > n) {
        return i;
      }
      int second = bytes[i + 1] & 0xFF;
      if (second < min2 || second > max2) {
        return i;
      }
      for (int k = 2; k < length; k++) {
        int next = bytes[i + k] & 0xFF;
        if (next < 0x80 || next > 0xBF) {
          return i;
        }
      }
      i += length;
    }
    return -1;
  }
}
