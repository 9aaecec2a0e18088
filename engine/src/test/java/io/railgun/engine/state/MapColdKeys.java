package io.railgun.engine.state;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * A durable store's cold keys in a map, for tests of what keeps state in one: each store and delete
 * takes effect at once (a checkpoint is then whatever the map holds), patches are kept as whole
 * values (the callers tested store none).
 */
public final class MapColdKeys implements ColdKeys {
    private final Map<String, byte[]> values = new HashMap<>();

    @Override
    public boolean load(byte[] key, int offset, int length, StateReader into) {
        byte[] v = values.get(name(key, offset, length));
        if (v == null) {
            return false;
        }
        into.reset(v, 0, v.length);
        return true;
    }

    @Override
    public void store(byte[] key, int offset, int length, byte[] value, int valueOffset, int valueLength, boolean patch) {
        values.put(name(key, offset, length), Arrays.copyOfRange(value, valueOffset, valueOffset + valueLength));
    }

    @Override
    public void leftCurrent(byte[] key, int offset, int length) {
        // the map holds the value already
    }

    @Override
    public long storeSnapshot(byte[] key, int offset, int length, byte[] value, int valueOffset, int valueLength,
            boolean patch) {
        store(key, offset, length, value, valueOffset, valueLength, patch);
        return 0;
    }

    @Override
    public void copyLeft(byte[] key, int offset, int length, long copy) {
        // the map holds the copy already
    }

    @Override
    public long deleteSnapshot(byte[] key, int offset, int length) {
        delete(key, offset, length);
        return 0;
    }

    @Override
    public void delete(byte[] key, int offset, int length) {
        values.remove(name(key, offset, length));
    }

    /** Keys held whose first byte is {@code tag}. */
    public long keysWithTag(byte tag) {
        return values.keySet().stream().filter(k -> k.startsWith(tag + ":")).count();
    }

    private static String name(byte[] key, int offset, int length) {
        return length == 0 ? "" : key[offset] + ":" + Arrays.toString(Arrays.copyOfRange(key, offset + 1, offset + length));
    }
}
