package io.railgun.engine.state;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * {@link ByteKeyIndex#find} only reads: two threads may look keys up at once in an index nobody
 * changes. A durable store relies on it (its checkpoint writer looks keys up in the hot keys' copies
 * while the task's thread reads them). When {@code find} kept the probed key's words in fields, the
 * other thread's lookup overwrote them between hashing and probing, and a present key was reported
 * absent: the task then read an older value of its state, a lost update ({@code LostUpdateStressTest}).
 *
 * <p>The JIT's compiled code kept those fields in registers, so the race showed only while the code
 * was interpreted or compiled by C1 (a JVM's first seconds): the readers run in a child JVM with
 * {@code -Xint}, where the old code got about 7,500 of 164,000 lookups wrong (compiled, it got
 * none: a case run in this JVM could not fail for this race, so there is none).
 */
class ByteKeyIndexConcurrentReadTest {
    private static final int KEYS = 4_096;
    private static final int ROUNDS = 20;

    @Test
    void twoInterpretedReadersFindEveryKeyAtOnce() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process child = new ProcessBuilder(java, "-Xint", "-cp", System.getProperty("java.class.path"),
                Readers.class.getName()).redirectErrorStream(true).start();
        String out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertThat(child.waitFor(2, TimeUnit.MINUTES)).isTrue();
        assertThat(child.exitValue()).as(out).isZero();
        assertThat(out).isEqualTo("wrong lookups: 0 of " + 2L * KEYS * ROUNDS);
    }

    /** Two threads looking up every key of one index at once; prints the lookups that missed or found another key. */
    static final class Readers {
        public static void main(String[] args) throws Exception {
            System.out.println("wrong lookups: " + run(ROUNDS) + " of " + 2L * KEYS * ROUNDS);
        }

        static long run(int rounds) throws InterruptedException {
            ByteKeyIndex index = new ByteKeyIndex(KEYS);
            byte[][] keys = new byte[KEYS][];
            int[] slots = new int[KEYS];
            for (int i = 0; i < KEYS; i++) {
                // short keys (held in their bucket, compared by words) and long ones (compared in the arena)
                keys[i] = ((i % 3 == 0 ? "a long key, past sixteen bytes " : "k") + i).getBytes(StandardCharsets.UTF_8);
                slots[i] = -index.findOrInsert(keys[i], 0, keys[i].length) - 1;
            }
            AtomicLong wrong = new AtomicLong();
            CountDownLatch start = new CountDownLatch(1);
            Runnable reader = () -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    return;
                }
                for (int r = 0; r < rounds; r++) {
                    for (int i = 0; i < KEYS; i++) {
                        if (index.find(keys[i], 0, keys[i].length) != slots[i]) {
                            wrong.incrementAndGet();
                        }
                    }
                }
            };
            Thread a = new Thread(reader, "reader-a");
            Thread b = new Thread(reader, "reader-b");
            a.start();
            b.start();
            start.countDown();
            a.join();
            b.join();
            return wrong.get();
        }
    }
}
