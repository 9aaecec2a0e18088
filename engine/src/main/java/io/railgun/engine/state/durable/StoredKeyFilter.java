package io.railgun.engine.state.durable;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * The keys ever written to a durable store's key tables, as a Bloom filter in memory: a key it says
 * is absent was never stored, so a cold load does not ask RocksDB for it (a new key, the common case
 * while keys keep arriving). No false negatives: every key-table key handed to a write buffer is
 * added before it can reach RocksDB, and the store adds every key-table key RocksDB holds when it
 * opens. The dedup ids are not in it (always looked up in RocksDB). False positives
 * (under 2%) only cost the RocksDB read the filter would have saved.
 *
 * <p>Layout: blocked Bloom filter layers; a key sets 4 bits of one 512-bit block (one cache line)
 * chosen by a 64-bit hash of its bytes. A layer holds up to its designed number of keys; past that
 * a new layer twice as large takes the next keys, and a lookup asks every layer (few: they double).
 * A key absent from all layers is a false positive in any of them, so the rates add up: the first
 * layer has 10 bits per key (about 1.2%), each later one 4 more (0.3%, 0.1% ...), so the sum stays
 * under 2% however many layers the keys need (with 10 bits in every layer, six layers measured 6%).
 * Deleted keys stay in (a false positive).
 *
 * <p>Allocation: a new layer when the keys outgrow the last one; none per key. Owned by the
 * task's thread.
 */
final class StoredKeyFilter {
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final int FIRST_BITS_PER_KEY = 10;
    private static final int MORE_BITS_PER_LAYER = 4;
    private static final int MAX_LAYERS = 24;

    private final long[][] layers = new long[MAX_LAYERS][];
    private final long[] capacities = new long[MAX_LAYERS];
    private int layerCount;
    private long inLast;

    StoredKeyFilter(long expectedKeys) {
        addLayer(Math.max(1024, expectedKeys));
    }

    void add(byte[] key, int offset, int length) {
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
    boolean mightContain(byte[] key, int offset, int length) {
        long h = hash(key, offset, length);
        for (int i = layerCount - 1; i >= 0; i--) {
            if (test(layers[i], h)) {
                return true;
            }
        }
        return false;
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

    /** A 64-bit hash of the bytes (a mix per 8 bytes, then a finaliser). */
    static long hash(byte[] b, int off, int len) {
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
