package io.triplerpc.serialization.fastjson2;

import static com.alibaba.fastjson2.JSONB.Constants.BC_ARRAY;
import static com.alibaba.fastjson2.JSONB.Constants.BC_ARRAY_FIX_MIN;
import static com.alibaba.fastjson2.JSONB.Constants.BC_BIGINT;
import static com.alibaba.fastjson2.JSONB.Constants.BC_BIGINT_LONG;
import static com.alibaba.fastjson2.JSONB.Constants.BC_BINARY;
import static com.alibaba.fastjson2.JSONB.Constants.BC_CHAR;
import static com.alibaba.fastjson2.JSONB.Constants.BC_DECIMAL;
import static com.alibaba.fastjson2.JSONB.Constants.BC_DECIMAL_LONG;
import static com.alibaba.fastjson2.JSONB.Constants.BC_DOUBLE;
import static com.alibaba.fastjson2.JSONB.Constants.BC_DOUBLE_LONG;
import static com.alibaba.fastjson2.JSONB.Constants.BC_DOUBLE_NUM_0;
import static com.alibaba.fastjson2.JSONB.Constants.BC_DOUBLE_NUM_1;
import static com.alibaba.fastjson2.JSONB.Constants.BC_FALSE;
import static com.alibaba.fastjson2.JSONB.Constants.BC_FLOAT;
import static com.alibaba.fastjson2.JSONB.Constants.BC_FLOAT_INT;
import static com.alibaba.fastjson2.JSONB.Constants.BC_INT16;
import static com.alibaba.fastjson2.JSONB.Constants.BC_INT32;
import static com.alibaba.fastjson2.JSONB.Constants.BC_INT32_BYTE_MAX;
import static com.alibaba.fastjson2.JSONB.Constants.BC_INT32_BYTE_MIN;
import static com.alibaba.fastjson2.JSONB.Constants.BC_INT32_BYTE_ZERO;
import static com.alibaba.fastjson2.JSONB.Constants.BC_INT32_NUM_MAX;
import static com.alibaba.fastjson2.JSONB.Constants.BC_INT32_NUM_MIN;
import static com.alibaba.fastjson2.JSONB.Constants.BC_INT32_SHORT_MAX;
import static com.alibaba.fastjson2.JSONB.Constants.BC_INT32_SHORT_MIN;
import static com.alibaba.fastjson2.JSONB.Constants.BC_INT32_SHORT_ZERO;
import static com.alibaba.fastjson2.JSONB.Constants.BC_INT64;
import static com.alibaba.fastjson2.JSONB.Constants.BC_INT64_BYTE_MAX;
import static com.alibaba.fastjson2.JSONB.Constants.BC_INT64_BYTE_MIN;
import static com.alibaba.fastjson2.JSONB.Constants.BC_INT64_INT;
import static com.alibaba.fastjson2.JSONB.Constants.BC_INT64_NUM_MAX;
import static com.alibaba.fastjson2.JSONB.Constants.BC_INT64_NUM_MIN;
import static com.alibaba.fastjson2.JSONB.Constants.BC_INT64_SHORT_MAX;
import static com.alibaba.fastjson2.JSONB.Constants.BC_INT64_SHORT_MIN;
import static com.alibaba.fastjson2.JSONB.Constants.BC_INT8;
import static com.alibaba.fastjson2.JSONB.Constants.BC_LOCAL_DATE;
import static com.alibaba.fastjson2.JSONB.Constants.BC_LOCAL_DATETIME;
import static com.alibaba.fastjson2.JSONB.Constants.BC_LOCAL_TIME;
import static com.alibaba.fastjson2.JSONB.Constants.BC_NULL;
import static com.alibaba.fastjson2.JSONB.Constants.BC_OBJECT;
import static com.alibaba.fastjson2.JSONB.Constants.BC_OBJECT_END;
import static com.alibaba.fastjson2.JSONB.Constants.BC_REFERENCE;
import static com.alibaba.fastjson2.JSONB.Constants.BC_STR_ASCII;
import static com.alibaba.fastjson2.JSONB.Constants.BC_STR_ASCII_FIX_MAX;
import static com.alibaba.fastjson2.JSONB.Constants.BC_STR_ASCII_FIX_MIN;
import static com.alibaba.fastjson2.JSONB.Constants.BC_STR_GB18030;
import static com.alibaba.fastjson2.JSONB.Constants.BC_STR_UTF8;
import static com.alibaba.fastjson2.JSONB.Constants.BC_SYMBOL;
import static com.alibaba.fastjson2.JSONB.Constants.BC_TIMESTAMP;
import static com.alibaba.fastjson2.JSONB.Constants.BC_TIMESTAMP_MILLIS;
import static com.alibaba.fastjson2.JSONB.Constants.BC_TIMESTAMP_MINUTES;
import static com.alibaba.fastjson2.JSONB.Constants.BC_TIMESTAMP_SECONDS;
import static com.alibaba.fastjson2.JSONB.Constants.BC_TIMESTAMP_WITH_TIMEZONE;
import static com.alibaba.fastjson2.JSONB.Constants.BC_TRUE;
import static com.alibaba.fastjson2.JSONB.Constants.BC_TYPED_ANY;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;

/**
 * Walks the structure of one JSONB value, as fastjson2 reads it, before fastjson2 reads it: every string,
 * binary and number is whole inside the bytes, every length and element count is non-negative and fits in
 * what follows, and every object ends.
 *
 * <p>fastjson2 trusts those lengths. Where it passes over a value it does not bind (an unknown field, a
 * value its reader ignores) it adds the length to its position, so a negative one sends it back to bytes it
 * has read, for ever: eleven bytes held a thread at full speed. It sizes a list by its declared count
 * before reading an element. A walk that moves only forward and fails at the first length that does not fit
 * rules out both, whatever path fastjson2 then takes through the value. Symbol-table references (negative
 * string lengths) are refused too: Triple reads JSONB without a symbol table, as Dubbo does.
 */
final class JsonbShape {

  /** A frame of an object whose next item is a field name (or its end). */
  private static final int NAME = -1;
  /** A frame of an object whose next item is a field value. */
  private static final int VALUE = -2;

  /** The field name fastjson2 reads a class name after. */
  private static final byte[] TYPE_KEY = {'@', 't', 'y', 'p', 'e'};

  private final byte[] bytes;
  private final int end;
  /** The symbols defined as {@code "@type"}; null while there is none. */
  private Set<Integer> typeKeySymbols;
  private int position;
  /** Open containers, innermost last: elements an array still holds, or {@link #NAME} / {@link #VALUE}. */
  private int[] frames = new int[8];
  private int depth;

  private JsonbShape(byte[] bytes, int offset, int length) {
    this.bytes = bytes;
    this.position = offset;
    this.end = offset + length;
  }

  /**
   * Checks that {@code bytes[offset, offset + length)} start with one whole JSONB value.
   *
   * @return the offset just after the value
   * @throws IllegalArgumentException naming what does not fit, and where
   */
  static int check(byte[] bytes, int offset, int length) {
    return new JsonbShape(bytes, offset, length).value();
  }

  // The walk is a loop with its own stack: nesting as deep as the bytes allow costs an int per level, not a
  // Java frame.
  private int value() {
    boolean valueExpected = false;
    while (true) {
      if (!valueExpected && depth > 0 && frames[depth - 1] == NAME) {
        byte type = peek();
        if (type == BC_OBJECT_END) {
          position++;
          depth--;
          if (completed()) {
            return position;
          }
          continue;
        }
        boolean typeKey;
        if (type == BC_SYMBOL) {
          position++;
          typeKey = symbol(false);
        } else {
          int length = typeKeyLength(position);
          typeKey = length > 0;
          position += length;
        }
        if (typeKey) {
          // fastjson2 reads the value of an "@type" field as a class name, as it reads a type name.
          completed();
          typeName(false);
          if (completed()) {
            return position;
          }
          continue;
        }
        if (type == BC_SYMBOL) {
          if (completed()) {
            return position;
          }
          continue;
        }
      }
      valueExpected = false;
      int start = position;
      byte type = next();
      if (type >= BC_STR_ASCII_FIX_MIN && type <= BC_STR_ASCII_FIX_MAX) {
        skip(type - BC_STR_ASCII_FIX_MIN, start);
      } else if (type >= BC_STR_ASCII && type <= BC_STR_GB18030 || type == BC_BINARY || type == BC_BIGINT) {
        skip(length(start), start);
      } else if (type >= BC_INT32_NUM_MIN && type <= BC_INT32_NUM_MAX
          || type >= BC_INT64_NUM_MIN && type <= BC_INT64_NUM_MAX
          || type == BC_NULL || type == BC_TRUE || type == BC_FALSE
          || type == BC_DOUBLE_NUM_0 || type == BC_DOUBLE_NUM_1) {
        // the type byte is the value
      } else if (type >= BC_INT32_BYTE_MIN && type <= BC_INT32_BYTE_MAX
          || type >= BC_INT64_BYTE_MIN && type <= BC_INT64_BYTE_MAX || type == BC_INT8) {
        skip(1, start);
      } else if (type >= BC_INT32_SHORT_MIN && type <= BC_INT32_SHORT_MAX
          || type >= BC_INT64_SHORT_MIN && type <= BC_INT64_SHORT_MAX || type == BC_INT16) {
        skip(2, start);
      } else if (type == BC_INT32 || type == BC_INT64_INT || type == BC_FLOAT || type == BC_LOCAL_DATE
          || type == BC_TIMESTAMP_SECONDS || type == BC_TIMESTAMP_MINUTES) {
        skip(4, start);
      } else if (type == BC_INT64 || type == BC_DOUBLE || type == BC_TIMESTAMP_MILLIS) {
        skip(8, start);
      } else if (type == BC_CHAR || type == BC_FLOAT_INT) {
        integer();
      } else if (type == BC_DOUBLE_LONG || type == BC_DECIMAL_LONG || type == BC_BIGINT_LONG) {
        integer();
      } else if (type == BC_TIMESTAMP) {
        integer();
        integer();
      } else if (type == BC_LOCAL_TIME) {
        skip(3, start);
        integer();
      } else if (type == BC_LOCAL_DATETIME) {
        skip(7, start);
        integer();
      } else if (type == BC_TIMESTAMP_WITH_TIMEZONE) {
        skip(7, start);
        integer();
        string();
      } else if (type == BC_DECIMAL) {
        // the scale, then the unscaled value as a value of its own
        integer();
        valueExpected = true;
        continue;
      } else if (type == BC_TYPED_ANY) {
        // the type's name (or a reference to a name read before), then the typed value
        typeName(true);
        valueExpected = true;
        continue;
      } else if (type == BC_SYMBOL) {
        symbol(false);
      } else if (type == BC_REFERENCE) {
        string();
      } else if (type >= BC_ARRAY_FIX_MIN && type <= BC_ARRAY) {
        int count = type == BC_ARRAY ? length(start) : type - BC_ARRAY_FIX_MIN;
        if (count > 0) {
          if (count > end - position) {
            throw malformed(start, "an array of " + count + " elements where " + (end - position) + " byte(s) follow");
          }
          push(count);
          continue;
        }
      } else if (type == BC_OBJECT) {
        push(NAME);
        continue;
      } else {
        throw malformed(start, "type byte " + type + " where a value starts");
      }
      if (completed()) {
        return position;
      }
    }
  }

  /** One value ended; returns whether it was the outermost one. */
  private boolean completed() {
    while (depth > 0) {
      int top = frames[depth - 1];
      if (top == NAME) {
        frames[depth - 1] = VALUE;
        return false;
      }
      if (top == VALUE) {
        frames[depth - 1] = NAME;
        return false;
      }
      if (--frames[depth - 1] > 0) {
        return false;
      }
      depth--;
    }
    return true;
  }

  private void push(int frame) {
    if (depth == frames.length) {
      frames = Arrays.copyOf(frames, depth * 2);
    }
    frames[depth++] = frame;
  }

  /**
   * A class name where fastjson2 reads one (after a typed-value marker, or as an {@code "@type"} field's
   * value): optionally marked as a symbol, a reference to a name read before (an integer) or the name
   * and, after a type marker, the integer it will be known by.
   */
  private void typeName(boolean typed) {
    byte type = peek();
    if (!typed && (type == BC_SYMBOL || type >= BC_INT32_NUM_MIN && type <= BC_INT32)) {
      // fastjson2 reads an "@type" value's symbol in a grammar of its own; a Triple or Dubbo writer never
      // writes one.
      throw malformed(position, "type byte " + type + " where an \"@type\" field's class name starts");
    }
    if (type == BC_SYMBOL) {
      position++;
      symbol(true);
      return;
    }
    if (type >= BC_INT32_NUM_MIN && type <= BC_INT32) {
      integer();
      return;
    }
    classNameString();
    if (typed) {
      integer();
    }
  }

  /**
   * A symbol, after its marker: a reference (an integer) or a definition (a string and the integer it is
   * known by); returns whether it names {@code "@type"}.
   */
  private boolean symbol(boolean className) {
    byte type = peek();
    if (type >= BC_INT32_NUM_MIN && type <= BC_INT32) {
      int symbol = integer();
      return typeKeySymbols != null && typeKeySymbols.contains(symbol);
    }
    boolean typeKey = typeKeyLength(position) > 0;
    if (className) {
      classNameString();
    } else {
      string();
    }
    int symbol = integer();
    if (typeKey) {
      if (typeKeySymbols == null) {
        typeKeySymbols = new HashSet<>();
      }
      typeKeySymbols.add(symbol);
    }
    return typeKey;
  }

  private void string() {
    int start = position;
    byte type = next();
    if (type >= BC_STR_ASCII_FIX_MIN && type <= BC_STR_ASCII_FIX_MAX) {
      skip(type - BC_STR_ASCII_FIX_MIN, start);
    } else if (type >= BC_STR_ASCII && type <= BC_STR_GB18030) {
      skip(length(start), start);
    } else if (type != BC_NULL) {
      throw malformed(start, "type byte " + type + " where a string starts");
    }
  }

  /**
   * A class name's string. fastjson2 hashes a class name in UTF-16 (or GB18030) without moving past it,
   * and would then read the name's characters as values: only the encodings it moves past are taken.
   */
  private void classNameString() {
    int start = position;
    byte type = next();
    if (type >= BC_STR_ASCII_FIX_MIN && type <= BC_STR_ASCII_FIX_MAX) {
      skip(type - BC_STR_ASCII_FIX_MIN, start);
    } else if (type == BC_STR_ASCII || type == BC_STR_UTF8) {
      skip(length(start), start);
    } else {
      throw malformed(start, "type byte " + type + " where a class name (ASCII or UTF-8) starts");
    }
  }

  /**
   * The length in bytes of the string at {@code at} if it is {@code "@type"}, in an encoding fastjson2 reads
   * a field name in; else 0.
   */
  private int typeKeyLength(int at) {
    if (end - at < 1 + TYPE_KEY.length) {
      return 0;
    }
    byte type = bytes[at];
    int from;
    if (type == BC_STR_ASCII_FIX_MIN + TYPE_KEY.length) {
      from = at + 1;
    } else if ((type == BC_STR_ASCII || type == BC_STR_UTF8) && bytes[at + 1] == TYPE_KEY.length
        && end - at >= 2 + TYPE_KEY.length) {
      from = at + 2;
    } else {
      return 0;
    }
    boolean typeKey = Arrays.equals(bytes, from, from + TYPE_KEY.length, TYPE_KEY, 0, TYPE_KEY.length);
    return typeKey ? from - at + TYPE_KEY.length : 0;
  }

  /**
   * An integer in any of the encodings fastjson2 reads one from; returns it if it is one of the int32
   * encodings a symbol is written in, else {@link Integer#MIN_VALUE}.
   */
  private int integer() {
    int start = position;
    byte type = peek();
    if (type >= BC_INT32_NUM_MIN && type <= BC_INT32) {
      return length(start, false);
    }
    position++;
    if (type >= BC_INT64_NUM_MIN && type <= BC_INT64_NUM_MAX) {
      return Integer.MIN_VALUE;
    }
    if (type >= BC_INT64_BYTE_MIN && type <= BC_INT64_BYTE_MAX || type == BC_INT8) {
      skip(1, start);
    } else if (type >= BC_INT64_SHORT_MIN && type <= BC_INT64_SHORT_MAX || type == BC_INT16) {
      skip(2, start);
    } else if (type == BC_INT64_INT) {
      skip(4, start);
    } else if (type == BC_INT64) {
      skip(8, start);
    } else {
      throw malformed(start, "type byte " + type + " where an integer starts");
    }
    return Integer.MIN_VALUE;
  }

  /** A length or count, in the encodings fastjson2's {@code readLength} takes; at least zero. */
  private int length(int valueStart) {
    return length(valueStart, true);
  }

  private int length(int valueStart, boolean count) {
    int start = position;
    byte type = next();
    int length;
    if (type >= BC_INT32_NUM_MIN && type <= BC_INT32_NUM_MAX) {
      length = type;
    } else if (type >= BC_INT32_BYTE_MIN && type <= BC_INT32_BYTE_MAX) {
      need(1, start);
      length = ((type - BC_INT32_BYTE_ZERO) << 8) + (bytes[position++] & 0xff);
    } else if (type >= BC_INT32_SHORT_MIN && type <= BC_INT32_SHORT_MAX) {
      need(2, start);
      length = ((type - BC_INT32_SHORT_ZERO) << 16) + ((bytes[position] & 0xff) << 8) + (bytes[position + 1] & 0xff);
      position += 2;
    } else if (type == BC_INT32) {
      need(4, start);
      length = (bytes[position] & 0xff) << 24 | (bytes[position + 1] & 0xff) << 16
          | (bytes[position + 2] & 0xff) << 8 | bytes[position + 3] & 0xff;
      position += 4;
    } else {
      throw malformed(start, "type byte " + type + " where " + (count ? "a length" : "an integer") + " starts");
    }
    if (count && length < 0) {
      throw malformed(valueStart, "a length of " + length);
    }
    return length;
  }

  private byte peek() {
    if (position >= end) {
      throw malformed(position, "the bytes end inside the value");
    }
    return bytes[position];
  }

  private byte next() {
    byte type = peek();
    position++;
    return type;
  }

  private void skip(int count, int valueStart) {
    need(count, valueStart);
    position += count;
  }

  private void need(int count, int valueStart) {
    if (count > end - position) {
      throw malformed(valueStart, count + " byte(s) where " + (end - position) + " follow");
    }
  }

  private IllegalArgumentException malformed(int at, String what) {
    return new IllegalArgumentException(what + " (the value at byte " + at + ")");
  }
}
