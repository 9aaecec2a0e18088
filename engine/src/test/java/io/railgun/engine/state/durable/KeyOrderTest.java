package io.railgun.engine.state.durable;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class KeyOrderTest {

    /** Random keys with long shared prefixes, prefixes of one another, and bytes above 0x7F: as a sort by unsigned bytes. */
    @Property(tries = 200)
    void ordersEveryBuffersKeysAsUnsignedBytes(@ForAll long seed, @ForAll @IntRange(min = 0, max = 3000) int count) {
        java.util.Random random = new java.util.Random(seed);
        byte[] shared = new byte[random.nextInt(12)];
        random.nextBytes(shared);
        // families of keys that agree on 10 bytes past the shared ones: they are ordered past the
        // 8 bytes the sort reads first
        byte[][] families = new byte[3][10];
        for (byte[] family : families) {
            random.nextBytes(family);
        }
        WriteBuffer buffer = new WriteBuffer();
        List<byte[]> written = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            byte[] key = Arrays.copyOf(shared, shared.length + 1 + random.nextInt(random.nextBoolean() ? 3 : 24));
            byte[] family = random.nextBoolean() ? families[random.nextInt(families.length)] : null;
            for (int b = shared.length; b < key.length; b++) {
                int f = b - shared.length;
                key[b] = family != null && f < family.length ? family[f]
                        : (byte) (random.nextBoolean() ? random.nextInt(4) - 2 : random.nextInt()); // (0xFE..0x01: signed and unsigned orders differ)
            }
            if (buffer.find(key, 0, key.length) < 0) {
                written.add(key);
            }
            buffer.put(key, 0, key.length, new byte[] {(byte) i}, 0, 1);
        }
        KeyOrder order = new KeyOrder();
        List<byte[]> sorted = keysInOrder(buffer, order);
        List<byte[]> expected = new ArrayList<>(written);
        expected.sort(Arrays::compareUnsigned);
        assertThat(sorted).containsExactlyElementsOf(expected);
        // the arrays kept for the next checkpoint do not leak into it
        WriteBuffer smaller = new WriteBuffer();
        smaller.put(new byte[] {2}, 0, 1, new byte[] {0}, 0, 1);
        smaller.put(new byte[] {1, 5}, 0, 2, new byte[] {0}, 0, 1);
        smaller.put(new byte[] {1}, 0, 1, new byte[] {0}, 0, 1);
        assertThat(keysInOrder(smaller, order)).containsExactly(new byte[] {1}, new byte[] {1, 5}, new byte[] {2});
    }

    /** Keys of zero bytes only, each a prefix of the next, and long keys equal but for their last byte: ordered past many levels. */
    @Test
    void ordersKeysThatArePrefixesOfOneAnother() {
        WriteBuffer buffer = new WriteBuffer();
        List<byte[]> expected = new ArrayList<>();
        for (int length = 300; length >= 1; length -= 7) {
            byte[] zeros = new byte[length];
            byte[] tail = new byte[20_000];
            tail[19_999] = (byte) length;
            buffer.put(zeros, 0, length, new byte[] {0}, 0, 1);
            buffer.put(tail, 0, tail.length, new byte[] {0}, 0, 1);
            expected.add(zeros);
            expected.add(tail);
        }
        expected.sort(Arrays::compareUnsigned);
        assertThat(keysInOrder(buffer, new KeyOrder())).containsExactlyElementsOf(expected);
    }

    private static List<byte[]> keysInOrder(WriteBuffer buffer, KeyOrder order) {
        int[] slots = order.sort(buffer);
        List<byte[]> keys = new ArrayList<>();
        for (int i = 0; i < buffer.count(); i++) {
            byte[] key = new byte[buffer.keys().keyLength(slots[i])];
            buffer.keys().copyKey(slots[i], key, 0);
            keys.add(key);
        }
        return keys;
    }
}
