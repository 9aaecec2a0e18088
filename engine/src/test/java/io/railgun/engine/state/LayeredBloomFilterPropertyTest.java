package io.railgun.engine.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * {@link LayeredBloomFilter} against the set of keys added (brute force): never a false negative,
 * whatever the keys (0 to 40 bytes, at offsets) and however many layers they grow into; false
 * positives stay rare (checked on keys certainly never added); written and read back, it answers
 * the same, and a truncated copy is refused.
 */
class LayeredBloomFilterPropertyTest {
    @Property(tries = 60)
    void noKeyAddedIsEverReportedAbsent(@ForAll("seeds") long seed) {
        Random r = new Random(seed);
        LayeredBloomFilter filter = new LayeredBloomFilter(1 + r.nextInt(5_000));
        Set<String> added = new HashSet<>();
        int n = r.nextInt(r.nextBoolean() ? 2_000 : 60_000);
        for (int i = 0; i < n; i++) {
            String k = "k" + r.nextInt(Math.max(1, n)) + "x".repeat(r.nextInt(30));
            if (r.nextInt(50) == 0) {
                k = "";
            }
            byte[] b = k.getBytes(StandardCharsets.UTF_8);
            int pad = r.nextInt(4);
            byte[] padded = new byte[b.length + pad];
            System.arraycopy(b, 0, padded, pad, b.length);
            filter.add(padded, pad, b.length);
            added.add(k);
            if (i == 0 || r.nextInt(100) == 0) { // (after the first key too: an empty filter answers without looking)
                for (String a : added) {
                    byte[] ab = a.getBytes(StandardCharsets.UTF_8);
                    assertThat(filter.mightContain(ab, 0, ab.length)).as("added %s", a).isTrue();
                }
            }
        }
        for (String a : added) {
            byte[] ab = a.getBytes(StandardCharsets.UTF_8);
            assertThat(filter.mightContain(ab, 0, ab.length)).as("added %s", a).isTrue();
        }
        // written and read back: the same answers, for every key added and for others
        byte[] out = new byte[filter.serializedBytes() + 3];
        assertThat(filter.writeTo(out, 3)).isEqualTo(out.length);
        LayeredBloomFilter read = LayeredBloomFilter.readFrom(out, 3, out.length - 3);
        assertThat(read.bytes()).isEqualTo(filter.bytes());
        assertThat(read.keys()).isEqualTo(filter.keys());
        for (String a : added) {
            byte[] ab = a.getBytes(StandardCharsets.UTF_8);
            assertThat(read.mightContain(ab, 0, ab.length)).as("added %s, read back", a).isTrue();
        }
        for (int i = 0; i < 1_000; i++) {
            byte[] b = ("other-" + i).getBytes(StandardCharsets.UTF_8);
            assertThat(read.mightContain(b, 0, b.length)).isEqualTo(filter.mightContain(b, 0, b.length));
        }
        assertThatThrownBy(() -> LayeredBloomFilter.readFrom(out, 3, out.length - 4))
                .isInstanceOf(IllegalArgumentException.class);
        int falsePositives = 0;
        int probes = 20_000;
        for (int i = 0; i < probes; i++) {
            byte[] b = ("never-" + i).getBytes(StandardCharsets.UTF_8); // no added key starts with "never-"
            if (filter.mightContain(b, 0, b.length)) {
                falsePositives++;
            }
        }
        assertThat(falsePositives).as("false positives of %d probes, %d keys", probes, added.size()).isLessThan(probes / 20);
    }

    @Provide
    Arbitrary<Long> seeds() {
        return Arbitraries.randomValue(Random::nextLong);
    }
}
