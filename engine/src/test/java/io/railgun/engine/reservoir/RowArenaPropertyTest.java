package io.railgun.engine.reservoir;

import static org.assertj.core.api.Assertions.assertThat;

import io.railgun.engine.event.EventRow;
import io.railgun.engine.event.EventRowWriter;
import io.railgun.engine.schema.FieldType;
import io.railgun.engine.schema.Schema;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * {@link RowArena} keeps every live row's bytes intact while rows are released mostly in order (some
 * late, released early, as late events are), with rows longer than a chunk, and frees emptied
 * chunks; a window of constant size reuses its chunks instead of allocating.
 */
class RowArenaPropertyTest {
    private final Schema schema;
    private final EventRowWriter writer = new EventRowWriter();

    RowArenaPropertyTest() {
        Map<String, FieldType> f = new LinkedHashMap<>();
        f.put("n", FieldType.LONG);
        f.put("s", FieldType.STRING);
        schema = Schema.of(f);
    }

    private record Live(long n, int len, long ref) {}

    @Property(tries = 60)
    void liveRowsKeepTheirBytesAndEmptiedChunksAreFreed(@ForAll long seed, @ForAll @IntRange(min = 1, max = 3000) int window) {
        SplittableRandom random = new SplittableRandom(seed);
        RowArena arena = new RowArena();
        ArrayDeque<Live> live = new ArrayDeque<>();
        List<Live> late = new ArrayList<>();
        for (long n = 0; n < 20_000; n++) {
            int len = random.nextInt(100) == 0 ? random.nextInt(3 * RowArena.CHUNK_BYTES / 2) : random.nextInt(400);
            Live row = append(arena, n, len);
            if (random.nextInt(20) == 0) {
                late.add(row); // a late event: leaves before rows appended before it
            } else {
                live.addLast(row);
            }
            while (live.size() > window) {
                arena.release(live.removeFirst().ref());
            }
            if (late.size() > 3) {
                arena.release(late.remove(random.nextInt(late.size())).ref());
            }
            if (n % 997 == 0) {
                live.forEach(l -> check(arena, l));
                late.forEach(l -> check(arena, l));
            }
        }
        live.forEach(l -> arena.release(l.ref()));
        late.forEach(l -> arena.release(l.ref()));
        // every row gone: only the chunk being filled is still in use
        assertThat(arena.usedBytes()).isLessThanOrEqualTo(3L * RowArena.CHUNK_BYTES / 2);
    }

    @Property(tries = 30)
    void aFullWindowAllocatesNoChunk(@ForAll long seed, @ForAll @IntRange(min = 1, max = 20_000) int window) {
        SplittableRandom random = new SplittableRandom(seed);
        RowArena arena = new RowArena();
        ArrayDeque<Live> live = new ArrayDeque<>();
        long allocatedWhenFull = -1;
        for (long n = 0; n < 100_000; n++) {
            live.addLast(append(arena, n, random.nextInt(200)));
            if (live.size() > window) {
                arena.release(live.removeFirst().ref());
            }
            if (n == 50_000) {
                allocatedWhenFull = arena.chunksAllocated();
            }
        }
        live.forEach(l -> check(arena, l));
        // the window's rows vary in bytes: one chunk more than the fullest so far at most
        assertThat(arena.chunksAllocated()).isLessThanOrEqualTo(allocatedWhenFull + 1);
    }

    private Live append(RowArena arena, long n, int len) {
        writer.begin(schema).setLong(0, n).setString(1, "x".repeat(len));
        writer.finish();
        return new Live(n, len, arena.append(writer.row()));
    }

    private void check(RowArena arena, Live l) {
        EventRow view = new EventRow();
        view.wrap(arena.chunk(l.ref()), RowArena.offset(l.ref()));
        assertThat(view.getLong(0)).isEqualTo(l.n());
        assertThat(view.stringLength(1)).isEqualTo(l.len());
    }
}
