package io.railgun.engine.state;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * The hashes of {@link ByteKeyIndex}'s keys: a key's 32-bit tag (its hash with the low 5 bits
 * replaced by its length when at most {@link #INLINE_BYTES} bytes, else by 31), its bucket's home,
 * and the two little-endian words a short key is held as. Stateless: any thread.
 */
public final class KeyTags {
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    /** Keys up to this length are held in their bucket and compared there. */
    static final int INLINE_BYTES = 16;
    private static final int LENGTH_BITS = 5;
    private static final int LONG_KEY = (1 << LENGTH_BITS) - 1;

    private KeyTags() {}

    /** A bucket's home (before masking) from its tag: the hash bits above the length field. */
    static int home(int tag) {
        return Integer.rotateRight(tag, LENGTH_BITS);
    }

    /** The tag of a key longer than {@link #INLINE_BYTES} (see the class comment). */
    static int longTag(byte[] key, int offset, int length) {
        return (hash(key, offset, length) & ~LONG_KEY) | LONG_KEY;
    }

    /** The tag of a key of at most {@link #INLINE_BYTES}, from its words (zero-padded, little-endian). */
    static int shortTag(int length, long w0, long w1) {
        // the words hold all of the key with its length: hash them rather than reading the bytes again
        long h = (0x9E3779B97F4A7C15L ^ length ^ (w0 * 0xBF58476D1CE4E5B9L)) * 0x94D049BB133111EBL;
        h ^= h >>> 29;
        h = (h ^ (w1 * 0xBF58476D1CE4E5B9L)) * 0x94D049BB133111EBL;
        h ^= h >>> 31;
        h *= 0xD6E8FEB86659FD93L;
        h ^= h >>> 32;
        return ((int) h & ~LONG_KEY) | length;
    }

    /** The tag of any key. */
    static int tag(byte[] key, int offset, int length) {
        if (length > INLINE_BYTES) {
            return longTag(key, offset, length);
        }
        return shortTag(length, word0(key, offset, length), word1(key, offset, length));
    }

    /** Bytes 0..7 of a short key, as its bucket holds them. */
    static long word0(byte[] key, int offset, int length) {
        return word(key, offset, Math.min(length, 8));
    }

    /** Bytes 8..15 of a short key (0 for a key of at most 8), as its bucket holds them. */
    static long word1(byte[] key, int offset, int length) {
        return length > 8 ? word(key, offset + 8, length - 8) : 0;
    }

    /** Up to 8 bytes at {@code off}, little-endian, zero-padded. */
    private static long word(byte[] b, int off, int len) {
        if (len == 8) {
            return (long) LONG.get(b, off);
        }
        long w = 0;
        for (int i = 0; i < len; i++) {
            w |= (b[off + i] & 0xFFL) << (8 * i);
        }
        return w;
    }

    /** A 32-bit hash of bytes (64-bit multiply-xorshift mixing over 8-byte words). */
    public static int hash(byte[] b, int off, int len) {
        long h = 0x9E3779B97F4A7C15L ^ len;
        int i = 0;
        for (; i + 8 <= len; i += 8) {
            long k = (long) LONG.get(b, off + i);
            h = (h ^ (k * 0xBF58476D1CE4E5B9L)) * 0x94D049BB133111EBL;
            h ^= h >>> 29;
        }
        long tail = 0;
        for (int s = 0; i < len; i++, s += 8) {
            tail |= (b[off + i] & 0xFFL) << s;
        }
        h = (h ^ (tail * 0xBF58476D1CE4E5B9L)) * 0x94D049BB133111EBL;
        h ^= h >>> 31;
        h *= 0xD6E8FEB86659FD93L;
        h ^= h >>> 32;
        return (int) h;
    }
}
