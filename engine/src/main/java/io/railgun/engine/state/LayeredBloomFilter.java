package io.railgun.engine.state;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * A set of byte-string keys as a Bloom filter in memory: a key it says is absent was certainly never
 * added; one it says might be present may not have been (under 2% of the keys never added). Used
 * for the keys ever written to a durable store's key tables ({@code ChangeBuffers}) and for the
 * dedup ids in RocksDB ({@code io.railgun.engine.dedup.ColdIdFilter}), so that a lookup of a key
 * certainly absent does not reach RocksDB.
 *
 * <p>Layout: blocked Bloom filter layers; a key sets 4 bits of one 512-bit block (one cache line)
 * chosen by a 64-bit hash of its bytes. A layer holds up to its designed number of keys; past that
 * a new layer twice as large takes the next keys, and a lookup asks every layer (few: they double).
 * A key absent from all layers is a false positive in any of them, so the rates add up: the first
 * layer has 10 bits per key (about 1.2%), each later one 4 more (0.3%, 0.1% ...), so the sum stays
 * under 2% however many layers the keys need (with 10 bits in every layer, six layers measured 6%).
 * Keys cannot be removed.
 *
 * <p>Allocation: a new layer when the keys outgrow the last one; none per key. Not thread-safe:
 * owned by one thread (a task's).
 */
public final class LayeredBloomFilter {
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final int FIRST_BITS_PER_KEY = 10;
    private static final int MORE_BITS_PER_LAYER = 4;
    private static final int MAX_LAYERS = 24;

    private final long[][] layers = new long[MAX_LAYERS][];
    private final long[] capacities = new long[MAX_LAYERS];
    private int layerCount;
    private long inLast;

    /** An empty filter whose first layer is designed for {@code expectedKeys} (at least 1,024). */
    public LayeredBloomFilter(long expectedKeys) {
        addLayer(Math.max(1024, expectedKeys));
    }

    private LayeredBloomFilter() {
    }

    public void add(byte[] key, int offset, int length) {
        if (inLast >= capacities[layerCount - 1] && layerCount < MAX_LAYERS) {
            addLayer(capacities[layerCount - 1] * 2);
        }
        long h = hash(key, offset, length);
        long[] bits = layers[layerCount - 1];
        if (!set(bits, h)) {
            inLast++;
        }
    }

    /** False when the key was certainly never added. */
    public boolean mightContain(byte[] key, int offset, int length) {
        return !isEmpty() && mightContainHash(hash(key, offset, length));
    }

    /**
     * Whether no key was ever added (then {@link #mightContain} is false without a hash nor a
     * load of the layer: a durable store that evicts nothing asks its filter for every new key).
     */
    public boolean isEmpty() {
        return layerCount == 1 && inLast == 0; // (a key added to an empty layer sets at least one bit)
    }

    /** {@link #mightContain} of a key whose {@link #hash} is {@code h} (one hash for several filters). */
    public boolean mightContainHash(long h) {
        for (int i = layerCount - 1; i >= 0; i--) {
            if (test(layers[i], h)) {
                return true;
            }
        }
        return false;
    }

    /** Loads the block of each layer a {@link #mightContainHash} of {@code h} asks (a prefetch); returns anything. */
    public long touchForTest(long h) {
        long sum = 0;
        for (int i = layerCount - 1; i >= 0; i--) {
            long[] bits = layers[i];
            sum += bits[block(bits, h)];
        }
        return sum;
    }

    /** Loads the block an {@link #add} of a key whose hash is {@code h} sets (the last layer's); returns anything. */
    public long touchForAdd(long h) {
        long[] bits = layers[layerCount - 1];
        return bits[block(bits, h)];
    }

    private void addLayer(long keys) {
        long bitsPerKey = Math.min(64, FIRST_BITS_PER_KEY + (long) MORE_BITS_PER_LAYER * layerCount);
        long blocks = Math.max(1, Math.min(1L << 22, (keys * bitsPerKey + 511) / 512));
        layers[layerCount] = new long[(int) (Integer.highestOneBit((int) (blocks - 1) | 1) * 2L * 8)];
        capacities[layerCount] = keys;
        layerCount++;
        inLast = 0;
    }

    /** Sets the key's 4 bits; true when all were set already. */
    private static boolean set(long[] bits, long h) {
        int base = block(bits, h);
        boolean all = true;
        for (int i = 0; i < 4; i++) {
            int bit = (int) (h >>> (i * 9)) & 511;
            long m = 1L << bit;
            int w = base + (bit >>> 6);
            all &= (bits[w] & m) != 0;
            bits[w] |= m;
        }
        return all;
    }

    private static boolean test(long[] bits, long h) {
        int base = block(bits, h);
        for (int i = 0; i < 4; i++) {
            int bit = (int) (h >>> (i * 9)) & 511;
            if ((bits[base + (bit >>> 6)] & (1L << bit)) == 0) {
                return false;
            }
        }
        return true;
    }

    /** The first word of the key's block: from the hash's high bits (the low 36 pick the bits). */
    private static int block(long[] bits, long h) {
        int blocks = bits.length >>> 3;
        return (int) ((h >>> 40) & (blocks - 1)) << 3;
    }

    /** About how many distinct keys were added (those of the full layers at their design, plus the last's). */
    public long keys() {
        long k = inLast;
        for (int i = 0; i < layerCount - 1; i++) {
            k += capacities[i];
        }
        return k;
    }

    /** Heap bytes of the filter's bits. */
    public long bytes() {
        long b = 0;
        for (int i = 0; i < layerCount; i++) {
            b += layers[i].length * 8L;
        }
        return b;
    }

    /** Bytes {@link #writeTo} writes. */
    public int serializedBytes() {
        return Math.toIntExact(12 + 12L * layerCount + bytes());
    }

    /**
     * Writes the filter at {@code offset} of {@code out} ({@link #serializedBytes()} of them,
     * little-endian): the layer count, the keys in the last layer, then each layer's designed keys,
     * word count and words. Returns the offset after it.
     */
    public int writeTo(byte[] out, int offset) {
        int at = offset;
        INT.set(out, at, layerCount);
        LONG.set(out, at + 4, inLast);
        at += 12;
        for (int i = 0; i < layerCount; i++) {
            long[] bits = layers[i];
            LONG.set(out, at, capacities[i]);
            INT.set(out, at + 8, bits.length);
            at += 12;
            for (long w : bits) {
                LONG.set(out, at, w);
                at += 8;
            }
        }
        return at;
    }

    /**
     * Reads a filter {@link #writeTo} wrote at {@code offset} of {@code in}, within {@code length} bytes.
     *
     * @throws IllegalArgumentException when the bytes are not such a filter
     */
    public static LayeredBloomFilter readFrom(byte[] in, int offset, int length) {
        LayeredBloomFilter f = new LayeredBloomFilter();
        int end = offset + length;
        int at = offset;
        if (length < 12) {
            throw new IllegalArgumentException("a Bloom filter of " + length + " bytes is truncated");
        }
        f.layerCount = (int) INT.get(in, at);
        f.inLast = (long) LONG.get(in, at + 4);
        at += 12;
        if (f.layerCount < 1 || f.layerCount > MAX_LAYERS) {
            throw new IllegalArgumentException("a Bloom filter of " + f.layerCount + " layers is corrupt");
        }
        for (int i = 0; i < f.layerCount; i++) {
            if (end - at < 12) {
                throw new IllegalArgumentException("a Bloom filter's layer " + i + " is truncated");
            }
            f.capacities[i] = (long) LONG.get(in, at);
            int words = (int) INT.get(in, at + 8);
            at += 12;
            if (words < 8 || Integer.bitCount(words) != 1 || (end - at) / 8 < words) {
                throw new IllegalArgumentException("a Bloom filter's layer " + i + " of " + words + " words is corrupt");
            }
            long[] bits = new long[words];
            for (int w = 0; w < words; w++) {
                bits[w] = (long) LONG.get(in, at);
                at += 8;
            }
            f.layers[i] = bits;
        }
        return f;
    }

    /** A 64-bit hash of the bytes (a mix per 8 bytes, then a finaliser). */
    public static long hash(byte[] b, int off, int len) {
        long h = 0x9E3779B97F4A7C15L ^ len * 0xC2B2AE3D27D4EB4FL;
        int i = 0;
        for (; i + 8 <= len; i += 8) {
            h = Long.rotateLeft(h ^ ((long) LONG.get(b, off + i) * 0xBF58476D1CE4E5B9L), 27) * 0x94D049BB133111EBL;
        }
        long tail = 0;
        for (int s = 0; i < len; i++, s += 8) {
            tail |= (b[off + i] & 0xFFL) << s;
        }
        h = (h ^ (tail * 0xBF58476D1CE4E5B9L)) * 0x94D049BB133111EBL;
        h ^= h >>> 31;
        h *= 0xD6E8FEB86659FD93L;
        return h ^ (h >>> 32);
    }
}
