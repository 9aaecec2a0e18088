package io.railgun.engine.state.durable;

import static org.assertj.core.api.Assertions.assertThat;

import io.railgun.engine.state.ColdKeys;
import io.railgun.engine.state.StateReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A snapshot's copies are a log found by copy number ({@link ChangeBuffers}): a copy is read by key
 * once its hot tier says the key left, and a number a hot tier kept past its checkpoint names
 * nothing, though the next checkpoint's copies reuse the entries.
 */
class SnapshotCopiesTest {
    @TempDir
    Path dir;

    @Test
    void aCopyIsReadOnceItsKeyLeftAndANumberFromAWrittenCheckpointIsIgnored() {
        try (DurableStateStore store = DurableStateStore.open(dir, DurableStateOptions.defaults())) {
            ColdKeys cold = store.keyedState("by,1").cold();
            byte[] a = bytes("card-a");
            byte[] b = bytes("card-b");

            store.beginCheckpoint();
            long copyOfA = cold.storeSnapshot(a, 0, a.length, bytes("A1"), 0, 2, false);
            cold.leftCurrent(a, 0, a.length); // (in the filter of keys that left, as an eviction puts it)
            assertThat(read(cold, a)).as("a hot key's copy, its leaving not told").isNull();
            cold.copyLeft(a, 0, a.length, copyOfA);
            assertThat(read(cold, a)).as("the copy of a key that left").isEqualTo("A1");
            store.finishCheckpoint(bytes("record 1"), CompletableFuture.completedFuture(null));
            store.awaitCheckpoint(); // (written: its copies recycled)

            store.beginCheckpoint();
            long copyOfB = cold.storeSnapshot(b, 0, b.length, bytes("B2"), 0, 2, false);
            assertThat(copyOfB).as("numbers are not reused").isNotEqualTo(copyOfA);
            cold.copyLeft(a, 0, a.length, copyOfA); // kept past its checkpoint: b's entry in the copies now
            assertThat(read(cold, a)).as("a's state, written by the first checkpoint").isEqualTo("A1");
            cold.copyLeft(b, 0, b.length, copyOfB);
            cold.leftCurrent(b, 0, b.length);
            assertThat(read(cold, b)).isEqualTo("B2");
            store.finishCheckpoint(bytes("record 2"), CompletableFuture.completedFuture(null));
            store.awaitCheckpoint();
            assertThat(read(cold, a)).isEqualTo("A1");
            assertThat(read(cold, b)).isEqualTo("B2");
        }
    }

    private static String read(ColdKeys cold, byte[] key) {
        StateReader in = new StateReader();
        if (!cold.load(key, 0, key.length, in)) {
            return null;
        }
        byte[] value = Arrays.copyOfRange(in.buffer(), in.position(), in.position() + in.remaining());
        return new String(value, StandardCharsets.UTF_8);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
