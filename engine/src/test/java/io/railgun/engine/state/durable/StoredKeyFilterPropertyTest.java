package io.railgun.engine.state.durable;

import static org.assertj.core.api.Assertions.assertThat;

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
 * {@link StoredKeyFilter} against the set of keys added (brute force): never a false negative,
 * whatever the keys (0 to 40 bytes, at offsets) and however many layers they grow into; false
 * positives stay rare (checked on keys certainly never added).
 */
class StoredKeyFilterPropertyTest {
    @Property(tries = 60)
    void noKeyAddedIsEverReportedAbsent(@ForAll("seeds") long seed) {
        Random r = new Random(seed);
        StoredKeyFilter filter = new StoredKeyFilter(1 + r.nextInt(5_000));
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
            if (r.nextInt(100) == 0) {
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
