package dev.llmbench.internal.client;

/**
 * Decodes the bytes between a JSON string's quotes into UTF-16, as Jackson would, or declines. The
 * parser's shortcut takes a string only when this reads it; anything else (an unescaped quote or control
 * byte, an escape JSON does not define, UTF-8 that is not well formed) is declined and left to Jackson,
 * whose reading (or error) stands.
 */
final class JsonStringBody {

  private JsonStringBody() {}

  /**
   * Decodes {@code bytes[from, to)} into {@code out}, which must hold {@code to - from} chars (a string
   * never has more chars than bytes).
   *
   * @return the chars written, or -1 to leave the string to Jackson
   */
  static int decode(byte[] bytes, int from, int to, char[] out) {
    int n = 0;
    int i = from;
    while (i < to) {
      int b = bytes[i];
      if (b >= 0x20 && b != '"' && b != '\\') {
        out[n++] = (char) b;
        i++;
      } else if (b == '\\') {
        if (i + 1 >= to) return -1;
        int c = escaped(bytes, i + 1, to);
        if (c < 0) return -1;
        out[n++] = (char) c;
        i += bytes[i + 1] == 'u' ? 6 : 2;
      } else if (b < 0) {
        int length = utf8Length(bytes, i, to);
        if (length < 0) return -1;
        n = utf8(bytes, i, length, out, n);
        i += length;
      } else {
        return -1; // a control byte or a quote
      }
    }
    return n;
  }

  /** The char an escape stands for, its letter at {@code at}; -1 for one JSON lacks. */
  private static int escaped(byte[] bytes, int at, int to) {
    switch (bytes[at]) {
      case '"': return '"';
      case '\\': return '\\';
      case '/': return '/';
      case 'b': return '\b';
      case 'f': return '\f';
      case 'n': return '\n';
      case 'r': return '\r';
      case 't': return '\t';
      case 'u': {
        if (at + 5 > to) return -1;
        int c = 0;
        for (int k = 1; k <= 4; k++) {
          int digit = Character.digit(bytes[at + k], 16);
          if (digit < 0) return -1;
          c = c << 4 | digit;
        }
        return c; // a surrogate too, paired or not, as Jackson takes it
      }
      default: return -1;
    }
  }

  /** The length of the well-formed UTF-8 sequence at {@code i} (RFC 3629, table 3-7 of Unicode), or -1. */
  private static int utf8Length(byte[] bytes, int i, int to) {
    int b0 = bytes[i] & 0xFF;
    int length;
    int min = 0x80;
    int max = 0xBF;
    if (b0 >= 0xC2 && b0 <= 0xDF) {
      length = 2;
    } else if (b0 >= 0xE0 && b0 <= 0xEF) {
      length = 3;
      if (b0 == 0xE0) min = 0xA0; // no overlong form
      if (b0 == 0xED) max = 0x9F; // no surrogate
    } else if (b0 >= 0xF0 && b0 <= 0xF4) {
      length = 4;
      if (b0 == 0xF0) min = 0x90;
      if (b0 == 0xF4) max = 0x8F; // nothing past U+10FFFF
    } else {
      return -1;
    }
    if (i + length > to) return -1;
    int b1 = bytes[i + 1] & 0xFF;
    if (b1 < min || b1 > max) return -1;
    for (int k = 2; k < length; k++) if ((bytes[i + k] & 0xC0) != 0x80) return -1;
    return length;
  }

  private static int utf8(byte[] bytes, int i, int length, char[] out, int n) {
    int cp = bytes[i] & (0xFF >> (length + 1));
    for (int k = 1; k < length; k++) cp = cp << 6 | bytes[i + k] & 0x3F;
    if (cp < 0x10000) {
      out[n++] = (char) cp;
    } else {
      out[n++] = Character.highSurrogate(cp);
      out[n++] = Character.lowSurrogate(cp);
    }
    return n;
  }
}
