package io.railgun.engine.routing;

import io.railgun.engine.event.EventRow;
import io.railgun.engine.schema.Field;
import java.nio.charset.StandardCharsets;

/**
 * Which partition of a partitioner topic an event belongs to: Kafka's default partitioner applied
 * to the record key, {@code toPositive(murmur2(key)) % partitions}, where the key is the
 * partitioner value's text in UTF-8 (strings as they are, numbers and booleans as their JSON text).
 * So events produced directly to Kafka with that key land on the same task. A NULL value goes to
 * partition 0.
 */
public final class Partitioning {
    private Partitioning() {}

    public static int partitionOf(EventRow row, Field partitioner, int partitions) {
        int f = partitioner.index();
        if (partitions == 1 || row.isNull(f)) {
            return 0;
        }
        byte[] key = keyBytes(row, partitioner);
        return (murmur2(key, 0, key.length) & 0x7fffffff) % partitions;
    }

    /** The partition of a record key from {@link #keyBytes} (null for a NULL value). */
    public static int partitionOfKey(byte[] key, int partitions) {
        if (partitions == 1 || key == null) {
            return 0;
        }
        return (murmur2(key, 0, key.length) & 0x7fffffff) % partitions;
    }

    /** The Kafka record key of an event for a partitioner, or null when its value is NULL. */
    public static byte[] keyBytes(EventRow row, Field partitioner) {
        int f = partitioner.index();
        if (row.isNull(f)) {
            return null;
        }
        return switch (partitioner.type()) {
            case STRING -> {
                byte[] b = new byte[row.stringLength(f)];
                System.arraycopy(row.buffer(), row.stringOffset(f), b, 0, b.length);
                yield b;
            }
            case LONG, TIMESTAMP -> Long.toString(row.getLong(f)).getBytes(StandardCharsets.UTF_8);
            case DOUBLE -> Double.toString(row.getDouble(f)).getBytes(StandardCharsets.UTF_8);
            case BOOLEAN -> Boolean.toString(row.getBoolean(f)).getBytes(StandardCharsets.UTF_8);
        };
    }

    /** Kafka's murmur2 (org.apache.kafka.common.utils.Utils#murmur2), bit for bit. */
    public static int murmur2(byte[] data, int offset, int length) {
        final int m = 0x5bd1e995;
        final int r = 24;
        int h = 0x9747b28c ^ length;
        int length4 = length / 4;
        for (int i = 0; i < length4; i++) {
            int i4 = offset + i * 4;
            int k = (data[i4] & 0xff) + ((data[i4 + 1] & 0xff) << 8) + ((data[i4 + 2] & 0xff) << 16) + ((data[i4 + 3] & 0xff) << 24);
            k *= m;
            k ^= k >>> r;
            k *= m;
            h *= m;
            h ^= k;
        }
        int tail = offset + (length & ~3);
        switch (length % 4) {
            case 3:
                h ^= (data[tail + 2] & 0xff) << 16;
                // fall through
            case 2:
                h ^= (data[tail + 1] & 0xff) << 8;
                // fall through
            case 1:
                h ^= data[tail] & 0xff;
                h *= m;
                break;
            default:
                break;
        }
        h ^= h >>> 13;
        h *= m;
        h ^= h >>> 15;
        return h;
    }
}
