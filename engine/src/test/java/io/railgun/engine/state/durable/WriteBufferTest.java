package io.railgun.engine.state.durable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The write buffer's values on pages: what a key holds, against a map, across pages, clears and reuse. */
class WriteBufferTest {
    /** A key's entry in the model: its value (null: deleted) and whether it is a patch. */
    private record Entry(byte[] value, boolean patch) {
    }

    /**
     * Random whole puts, patches (appended to the key's value), deletions and clears, with values
     * from empty to several pages long (so page ends, values' own pages and reused pages all occur):
     * every key reads back its model's value, kind and length, and the bytes counted are the model's.
     */
    @Test
    void everyKeyReadsBackItsValueAcrossPagesAndClears() {
        SplittableRandom random = new SplittableRandom(11);
        WriteBuffer buffer = new WriteBuffer();
        Map<String, Entry> model = new HashMap<>();
        long usedBytes = 0;
        int clears = 0;
        for (int step = 0; step < 60_000; step++) {
            int op = random.nextInt(100);
            if (op == 0) {
                long keep = random.nextInt(4) * (long) WriteBuffer.PAGE_BYTES;
                buffer.clear(keep);
                assertThat(buffer.pageBytes()).as("pages kept after a clear").isLessThanOrEqualTo(Math.max(
                        WriteBuffer.PAGE_BYTES, 2 * keep));
                model.clear();
                usedBytes = 0;
                clears++;
                continue;
            }
            String name = "key-" + random.nextInt(3_000);
            byte[] key = name.getBytes(StandardCharsets.UTF_8);
            Entry held = model.get(name);
            if (op < 10) {
                buffer.delete(key, 0, key.length);
                model.put(name, new Entry(null, false));
                continue;
            }
            byte[] value = randomValue(random);
            int offset = random.nextInt(3);
            byte[] framed = new byte[offset + value.length + 2]; // the value inside a larger array
            System.arraycopy(value, 0, framed, offset, value.length);
            boolean patch = op < 40;
            if (patch && held != null && held.value() == null) {
                assertThatThrownBy(() -> buffer.put(key, 0, key.length, framed, offset, value.length, true))
                        .isInstanceOf(IllegalStateException.class);
                continue;
            }
            buffer.put(key, 0, key.length, framed, offset, value.length, patch);
            if (patch && held != null) {
                byte[] joined = Arrays.copyOf(held.value(), held.value().length + value.length);
                System.arraycopy(value, 0, joined, held.value().length, value.length);
                model.put(name, new Entry(joined, held.patch()));
                usedBytes += joined.length;
            } else {
                model.put(name, new Entry(value, patch));
                usedBytes += value.length;
            }
            if (step % 97 == 0) {
                assertMatches(buffer, model, usedBytes);
            }
        }
        assertMatches(buffer, model, usedBytes);
        assertThat(clears).as("clears happened").isGreaterThan(300);
    }

    /** Values of 30 MB in all: pages grow one at a time, nothing held is copied. */
    @Test
    void aGrowingBufferAllocatesOnlyItsPages() {
        WriteBuffer buffer = new WriteBuffer();
        byte[] value = new byte[1_000];
        long values = 0;
        for (int i = 0; i < 30_000; i++) {
            byte[] key = ("k" + i).getBytes(StandardCharsets.UTF_8);
            value[0] = (byte) i;
            buffer.put(key, 0, key.length, value, 0, value.length);
            values += value.length;
        }
        // at most a value's bytes lost at each page's end
        long pages = (values + WriteBuffer.PAGE_BYTES - 1) / WriteBuffer.PAGE_BYTES;
        assertThat(buffer.pageBytes()).isBetween(values, (pages + pages / 60 + 1) * WriteBuffer.PAGE_BYTES);
        byte[] key = "k12345".getBytes(StandardCharsets.UTF_8);
        int slot = buffer.find(key, 0, key.length);
        assertThat(buffer.valueArray(slot)[buffer.valueOffset(slot)]).isEqualTo((byte) 12345);

        long kept = buffer.pageBytes();
        buffer.clear(values); // a buffer under its bound keeps its pages ...
        assertThat(buffer.pageBytes()).isEqualTo(kept);
        for (int i = 0; i < 1_000; i++) {
            byte[] k = ("again" + i).getBytes(StandardCharsets.UTF_8);
            buffer.put(k, 0, k.length, value, 0, value.length);
        }
        assertThat(buffer.pageBytes()).as("... and reuses them").isEqualTo(kept);
        buffer.clear(WriteBuffer.PAGE_BYTES); // ... one past twice its bound gives them back
        assertThat(buffer.pageBytes()).isEqualTo(2L * WriteBuffer.PAGE_BYTES);
    }

    /**
     * A log (a snapshot's copies): each entry read back by the number its write returned, in key
     * order too, its number naming no entry once the log is cleared and refilled with other keys,
     * and no lookup by key.
     */
    @Test
    void aLogFindsItsEntriesByNumberOnly() {
        SplittableRandom random = new SplittableRandom(5);
        WriteBuffer log = WriteBuffer.log();
        for (int round = 0; round < 3; round++) {
            Map<Integer, byte[]> values = new HashMap<>();
            Map<Integer, String> keys = new HashMap<>();
            for (int i = 0; i < 20_000; i++) {
                String name = "r" + round + "-" + random.nextInt(1 << 30) + "-" + i;
                byte[] key = name.getBytes(StandardCharsets.UTF_8);
                byte[] value = i % 7 == 0 ? null : randomValue(random);
                int entry = value == null ? log.delete(key, 0, key.length)
                        : log.put(key, 0, key.length, value, 0, value.length, i % 3 == 0);
                assertThat(entry).as("entries numbered in order").isEqualTo(i);
                values.put(entry, value);
                keys.put(entry, name);
            }
            for (Map.Entry<Integer, String> e : keys.entrySet()) {
                byte[] key = e.getValue().getBytes(StandardCharsets.UTF_8);
                int entry = e.getKey();
                assertThat(log.keys().keyEquals(entry, key, 0, key.length)).as("its key").isTrue();
                byte[] want = values.get(entry);
                if (want == null) {
                    assertThat(log.valueLength(entry)).isEqualTo(WriteBuffer.DELETED);
                } else {
                    assertThat(Arrays.copyOfRange(log.valueArray(entry), log.valueOffset(entry),
                            log.valueOffset(entry) + log.valueLength(entry))).isEqualTo(want);
                    assertThat(log.isPatch(entry)).isEqualTo(entry % 3 == 0);
                }
            }
            byte[] last = keys.get(19_999).getBytes(StandardCharsets.UTF_8);
            assertThat(log.count()).isEqualTo(20_000);
            assertThatThrownBy(() -> log.find(last, 0, last.length)).isInstanceOf(IllegalStateException.class);
            int[] sorted = new KeyOrder().sort(log);
            for (int i = 1; i < log.count(); i++) {
                byte[] a = log.keys().keyArena();
                int oa = log.keys().keyOffset(sorted[i - 1]);
                int ob = log.keys().keyOffset(sorted[i]);
                assertThat(Arrays.compareUnsigned(a, oa, oa + log.keys().keyLength(sorted[i - 1]),
                        a, ob, ob + log.keys().keyLength(sorted[i]))).isLessThan(0);
            }
            log.clear(round * (long) WriteBuffer.PAGE_BYTES);
            assertThat(log.count()).as("a cleared log").isZero();
        }
    }

    private static byte[] randomValue(SplittableRandom random) {
        int kind = random.nextInt(100);
        int length = kind < 3 ? 0
                : kind < 85 ? 1 + random.nextInt(300)
                : kind < 97 ? random.nextInt(WriteBuffer.PAGE_BYTES + 1)
                : WriteBuffer.PAGE_BYTES + 1 + random.nextInt(3 * WriteBuffer.PAGE_BYTES);
        byte[] v = new byte[length];
        random.nextBytes(v);
        return v;
    }

    private static void assertMatches(WriteBuffer buffer, Map<String, Entry> model, long usedBytes) {
        long keyBytes = 0;
        for (Map.Entry<String, Entry> e : model.entrySet()) {
            byte[] key = e.getKey().getBytes(StandardCharsets.UTF_8);
            keyBytes += key.length;
            int slot = buffer.find(key, 0, key.length);
            assertThat(slot).as(e.getKey()).isGreaterThanOrEqualTo(0);
            Entry want = e.getValue();
            if (want.value() == null) {
                assertThat(buffer.valueLength(slot)).as(e.getKey()).isEqualTo(WriteBuffer.DELETED);
                continue;
            }
            int length = buffer.valueLength(slot);
            assertThat(length).as(e.getKey()).isEqualTo(want.value().length);
            byte[] got = Arrays.copyOfRange(buffer.valueArray(slot), buffer.valueOffset(slot),
                    buffer.valueOffset(slot) + length);
            assertThat(got).as(e.getKey()).isEqualTo(want.value());
            assertThat(buffer.isPatch(slot)).as(e.getKey()).isEqualTo(want.patch());
        }
        assertThat(buffer.count()).isEqualTo(model.size());
        assertThat(buffer.bytes()).isEqualTo(usedBytes + keyBytes + (long) WriteBuffer.ENTRY_BYTES * model.size());
    }
}
