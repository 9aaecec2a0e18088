package io.railgun.node.assignment.kafka;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The names (topics, node ids, URLs) an assignor record refers to, written once each and referred
 * to by index: a record with hundreds of tasks of a few topics stays small. Layout: u16 count, then
 * each string as u16 byte length and its UTF-8 bytes (big-endian, as Kafka's own protocol).
 *
 * <p>Not thread-safe: one instance per record being written or read.
 */
final class StringTable {
    private final List<String> strings = new ArrayList<>();
    private final Map<String, Integer> indexes = new HashMap<>();

    /** The index of {@code s}, added if new. */
    int indexOf(String s) {
        Integer i = indexes.get(s);
        if (i != null) {
            return i;
        }
        if (strings.size() == 0xFFFF) {
            throw new IllegalArgumentException("more than 65535 distinct names in one assignor record");
        }
        strings.add(s);
        indexes.put(s, strings.size() - 1);
        return strings.size() - 1;
    }

    String get(int index) {
        if (index >= strings.size()) {
            throw new IllegalArgumentException("name index " + index + " out of a table of " + strings.size());
        }
        return strings.get(index);
    }

    int encodedSize() {
        int size = 2;
        for (String s : strings) {
            size += 2 + s.getBytes(StandardCharsets.UTF_8).length;
        }
        return size;
    }

    void writeTo(ByteBuffer out) {
        out.putShort((short) strings.size());
        for (String s : strings) {
            putString(out, s);
        }
    }

    static StringTable readFrom(ByteBuffer in) {
        StringTable t = new StringTable();
        int count = Short.toUnsignedInt(in.getShort());
        for (int i = 0; i < count; i++) {
            String s = getString(in);
            t.strings.add(s);
            t.indexes.putIfAbsent(s, i);
        }
        return t;
    }

    static int stringSize(String s) {
        return 2 + s.getBytes(StandardCharsets.UTF_8).length;
    }

    static void putString(ByteBuffer out, String s) {
        byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        if (bytes.length > 0xFFFF) {
            throw new IllegalArgumentException("a name of " + bytes.length + " bytes does not fit an assignor record");
        }
        out.putShort((short) bytes.length);
        out.put(bytes);
    }

    static String getString(ByteBuffer in) {
        int length = Short.toUnsignedInt(in.getShort());
        byte[] bytes = new byte[length];
        in.get(bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
