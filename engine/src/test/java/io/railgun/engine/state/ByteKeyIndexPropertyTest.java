package io.railgun.engine.state;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * {@link ByteKeyIndex} behaves as a map from keys to distinct live slots, through growth, deletion and
 * compaction; keys of 0 to 24 bytes, so both those held in their bucket (up to 16) and those compared
 * in the arena; with zero bytes, so keys equal but for trailing zeros (the padding of a held key) are told
 * apart by their length.
 */
class ByteKeyIndexPropertyTest {

    record Op(boolean insert, String key) {}

    @Provide
    Arbitrary<List<Op>> operations() {
        Arbitrary<String> keys = Arbitraries.strings().withCharRange('a', 'e').withChars('\u0000').ofMinLength(0).ofMaxLength(24);
        return Arbitraries.oneOf(
                        keys.map(k -> new Op(true, k)),
                        keys.map(k -> new Op(false, k)))
                .list().ofMinSize(1).ofMaxSize(3000);
    }

    @Property(tries = 200)
    void behavesLikeAHashMap(@ForAll("operations") List<Op> ops) {
        ByteKeyIndex index = new ByteKeyIndex(4);
        Map<String, Integer> model = new HashMap<>();
        int clearEvery = 500 + ops.size() % 700; // cleared now and then: emptied, then filled again in the same arrays
        for (int i = 0; i < ops.size(); i++) {
            Op op = ops.get(i);
            if (i % clearEvery == clearEvery - 1) {
                index.clear();
                model.clear();
                if (i % 2 == 0) {
                    index.reserve(200, 3000); // empty: the arena too
                }
            }
            if (i % 997 == 500) { // room made for more keys at once (a write buffer before a checkpoint's copies), full or not
                index.reserve(model.size() * 3 + i % 50, i % 3 == 0 ? 0 : (long) model.size() * 30);
            }
            byte[] k = op.key().getBytes(StandardCharsets.UTF_8);
            if (op.insert()) {
                int r = index.findOrInsert(k, 0, k.length);
                if (model.containsKey(op.key())) {
                    assertThat(r).isEqualTo(model.get(op.key()));
                } else {
                    assertThat(r).isNegative();
                    model.put(op.key(), -r - 1);
                }
            } else {
                int r = index.remove(k, 0, k.length);
                Integer expected = model.remove(op.key());
                assertThat(r).isEqualTo(expected == null ? -1 : expected);
            }
            assertThat(index.size()).isEqualTo(model.size());
        }
        Set<Integer> slots = new HashSet<>();
        for (Map.Entry<String, Integer> e : model.entrySet()) {
            byte[] k = e.getKey().getBytes(StandardCharsets.UTF_8);
            assertThat(index.find(k, 0, k.length)).isEqualTo(e.getValue());
            assertThat(slots.add(e.getValue())).as("slots are distinct").isTrue();
            byte[] copy = new byte[k.length];
            assertThat(index.copyKey(e.getValue(), copy, 0)).isEqualTo(k.length);
            assertThat(copy).isEqualTo(k);
        }
    }

    @Property(tries = 50)
    void removeSlotRemovesExactlyThatKey(@ForAll("operations") List<Op> ops) {
        ByteKeyIndex index = new ByteKeyIndex(4);
        Map<String, Integer> model = new HashMap<>();
        for (Op op : ops) {
            byte[] k = op.key().getBytes(StandardCharsets.UTF_8);
            if (op.insert() || !model.containsKey(op.key())) {
                int r = index.findOrInsert(k, 0, k.length);
                model.putIfAbsent(op.key(), r < 0 ? -r - 1 : r);
            } else {
                index.removeSlot(model.remove(op.key()));
            }
        }
        for (Map.Entry<String, Integer> e : model.entrySet()) {
            byte[] k = e.getKey().getBytes(StandardCharsets.UTF_8);
            assertThat(index.find(k, 0, k.length)).isEqualTo(e.getValue());
        }
        assertThat(index.size()).isEqualTo(model.size());
    }

    /**
     * A capped slot table grows no further than the cap while below it (a hot tier of that many
     * keys, the limit not a power of two), and still doubles when more keys come; every key stays found.
     */
    @net.jqwik.api.Example
    void aCappedSlotTableStopsAtTheCapAndDoublesPastIt() {
        ByteKeyIndex index = new ByteKeyIndex(16);
        index.capSlots(1_000);
        for (int i = 0; i < 1_000; i++) {
            index.findOrInsert(key(i), 0, key(i).length);
        }
        assertThat(index.capacity()).isEqualTo(1_000);
        index.findOrInsert(key(1_000), 0, key(1_000).length);
        assertThat(index.capacity()).as("past the cap: doubled").isEqualTo(2_000);
        for (int i = 0; i <= 1_000; i++) {
            assertThat(index.find(key(i), 0, key(i).length)).isGreaterThanOrEqualTo(0);
        }
    }

    private static byte[] key(int i) {
        return ("key-" + i).getBytes(StandardCharsets.UTF_8);
    }
}
