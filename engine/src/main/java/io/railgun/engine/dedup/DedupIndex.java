package io.railgun.engine.dedup;

import io.railgun.engine.state.KeyTags;
import io.railgun.engine.state.Prefetches;
import java.util.Arrays;

/**
 * The event ids a task remembers (docs/semantics.md § Processing one event): the id of every
 * counted event whose counted timestamp is at or after the dedup boundary {@code T - H}. Ids are
 * kept in <b>arrival order</b>, because they expire in about that order: forgetting them walks a
 * log sequentially instead of probing a hash table once per expired id.
 *
 * <p><b>Layout.</b> A log of entries numbered by arrival ({@link ArrivalLog}, a ring of pages: the
 * counted timestamp, the offset and length of the id's bytes in a ring of bytes); entries
 * {@code [head, tail)} are held. A
 * linear-probing hash table of longs points into it: {@code (fingerprint << 32) | entry low 32
 * bits}, 0 empty. An id is <i>live</i> while its entry is held and its timestamp is at or after the
 * boundary; {@link #expireBefore} moves the boundary and drops entries from the head while they are
 * not live (an entry behind a live one, counted late with an older time, is dead at once and
 * dropped when the head reaches it). Expiry does not probe the table: a slot whose entry is no
 * longer held is reused by the next insert that probes it, or emptied by a sweep that walks the
 * table in order, a few slots per insert once 3/8 of it is in use ({@link #sweep}). When occupied
 * slots pass 1/2 (short probe runs: a miss, the common case, ends at the first empty slot), which
 * the sweep leaves to growth of the held ids, a larger table takes over and the entries move to it
 * a few slots per insert ({@link #grow}); the table is rebuilt from the log in one go only when
 * held entries the sweep cannot empty fill it, or every 2^30 inserts, so entry numbers taken from
 * 32 bits are never ambiguous. So the common case is one probe of the table (one cache line), an
 * append to the log, a step of the sweep and, later, a sequential step of the head; the id's bytes
 * ({@link IdBytes}) are read back only when a fingerprint matches.
 *
 * <p>Invariants: two live entries have the same id only when the later was added over the earlier
 * ({@link #add}; {@link #contains} then answers while either is live, {@link #latest} gives the later); {@code tail - head < 2^30}; every table slot that points to a held
 * entry is reachable from its id's hash without crossing an empty slot, in the table or, while its
 * entries move, in the previous one.
 *
 * <p>Allocation: none per event in steady state; the log takes a page more when the held entries
 * outgrow its pages, the byte ring and the table double (the table is reused, same size, when
 * rebuilt).
 *
 * <p>Single-threaded: owned by the task's thread.
 */
public final class DedupIndex {
    private static final long LOW32 = 0xFFFF_FFFFL;
    private static final long REBUILD_EVERY = 1L << 30;
    private static final int SWEEP_SLOTS = 8;
    private static final int MIGRATE_SLOTS = 16;

    private final ArrivalLog log = new ArrivalLog(); // offsets: absolute, in the byte ring
    private long head;
    private long tail;

    private final IdBytes bytes;

    private long[] table;
    private int tableMask;
    private int occupied;
    private long rebuiltAt;
    private long rebuilds;
    private long growths;
    private long[] previous; // the table before the last growth, while its entries move (else null)
    private int migrated; // the next slot of previous to move
    private int sweepCursor; // the next table slot the sweep looks at

    private long boundary = Long.MIN_VALUE;
    private final Prefetches prefetches = new Prefetches();

    public DedupIndex() {
        this(1024);
    }

    /** An index sized for about {@code expected} ids before it grows. */
    public DedupIndex(int expected) {
        int n = Integer.highestOneBit(Math.max(16, expected - 1) * 2);
        bytes = new IdBytes(n * 16);
        table = new long[n * 2];
        tableMask = table.length - 1;
    }

    /** Notes a load of the table slot a lookup of {@code id} starts at, for {@link #issuePrefetches}. */
    public void prefetch(byte[] id, int offset, int length) {
        prefetches.note(firstSlot(KeyTags.hash(id, offset, length), tableMask));
    }

    /** Loads the slots {@link #prefetch} noted; returns anything. */
    public long issuePrefetches() {
        return prefetches.issue(table);
    }

    /** Whether {@code id} is live: counted at or after the boundary, and not yet forgotten. */
    public boolean contains(byte[] id, int offset, int length) {
        int h = KeyTags.hash(id, offset, length);
        if (latestIn(table, tableMask, h, id, offset, length, true) != Long.MIN_VALUE) {
            return true;
        }
        return previous != null && latestIn(previous, previous.length - 1, h, id, offset, length, true) != Long.MIN_VALUE;
    }

    /**
     * The latest timestamp {@code id} is live with, Long.MIN_VALUE when it is not live (a task reading
     * ids back after its horizon grew may hold two copies of one: {@link #add}).
     */
    public long latest(byte[] id, int offset, int length) {
        int h = KeyTags.hash(id, offset, length);
        long latest = latestIn(table, tableMask, h, id, offset, length, false);
        return previous == null ? latest
                : Math.max(latest, latestIn(previous, previous.length - 1, h, id, offset, length, false));
    }

    /**
     * The latest timestamp {@code id} (hash {@code h}) is live with in table {@code t}, or
     * Long.MIN_VALUE; with {@code any}, 0 as soon as one live entry is found (whatever its
     * timestamp: an id counted at Long.MIN_VALUE is live too).
     */
    private long latestIn(long[] t, int mask, int h, byte[] id, int offset, int length, boolean any) {
        long fp = fingerprint(h);
        long latest = Long.MIN_VALUE;
        for (int i = firstSlot(h, mask); ; i = (i + 1) & mask) {
            long v = t[i];
            if (v == 0) {
                return latest;
            }
            if ((v >>> 32) == fp) {
                long e = entry(v);
                if (e >= head && isLive(e) && sameId(e, id, offset, length)) {
                    if (any) {
                        return 0;
                    }
                    latest = Math.max(latest, log.timestamp(e));
                }
            }
        }
    }

    /**
     * Remembers {@code id}, counted at {@code timestamp} (at or after the boundary). The caller has
     * checked that it is not live ({@link #contains}), or that it is live only with an earlier
     * timestamp ({@link #latest}: ids read back in time order after the horizon grew, which may hold
     * two copies of an id counted more than the old horizon apart; then the later one keeps it live).
     */
    public void add(byte[] id, int offset, int length, long timestamp) {
        long start = bytes.append(id, offset, length);
        log.append(head, tail, timestamp, start, length);
        long e = tail++;
        if (head == e) {
            bytes.dropBefore(start);
        }
        place(KeyTags.hash(id, offset, length), e);
        if (previous != null) {
            migrate(MIGRATE_SLOTS);
        }
        if (occupied * 8L > table.length * 3L) {
            sweep();
        }
        if (occupied * 2L > table.length || tail - rebuiltAt >= REBUILD_EVERY) {
            if (previous == null && (tail - head) * 4 > table.length && tail - rebuiltAt < REBUILD_EVERY) {
                grow();
            } else {
                rebuild();
            }
        }
    }

    /**
     * Forgets the ids counted before {@code boundary} (the task passes {@code T - H}). The boundary
     * may also move back (the horizon grew): ids still held become live again.
     */
    public void expireBefore(long boundary) {
        this.boundary = boundary;
        while (head < tail && log.timestamp(head) < boundary) {
            head++;
        }
        bytes.dropBefore(head < tail ? log.offset(head) : bytes.tail());
    }

    /** The boundary in force: ids counted before it are forgotten. */
    public long boundary() {
        return boundary;
    }

    /** Entries held: the live ids plus the dead ones not yet dropped from the log (late arrivals). */
    public long held() {
        return tail - head;
    }

    /** The counted timestamp of the oldest entry held (Long.MIN_VALUE when none): about the oldest live id's. */
    public long oldestTimestamp() {
        return tail > head ? log.timestamp(head) : Long.MIN_VALUE;
    }

    /**
     * Whether the table is at least eight times the held entries (past 512; a fresh table holds
     * 2,048 slots): at least twice what a
     * fresh index of them would have, as the table never shrinks (after a jump in time, a narrower
     * boundary or a fall in the rate of ids it is sized for ids gone; growth leaves it at four to
     * eight times the held entries, so the held entries have halved since it last grew).
     */
    public boolean oversized() {
        return table.length >= 8L * Math.max(512, tail - head);
    }

    /** Heap bytes of the index's arrays. */
    public long memoryBytes() {
        return log.memoryBytes() + bytes.memoryBytes() + table.length * 8L + (previous == null ? 0 : previous.length * 8L);
    }

    /** Forgets every id. */
    public void clear() {
        head = tail;
        bytes.dropBefore(bytes.tail());
        Arrays.fill(table, 0);
        previous = null;
        occupied = 0;
        rebuiltAt = tail;
    }

    private boolean isLive(long e) {
        return log.timestamp(e) >= boundary;
    }

    private boolean sameId(long e, byte[] id, int offset, int length) {
        if (log.length(e) != length) {
            return false;
        }
        return bytes.equalsAt(log.offset(e), id, offset, length);
    }

    /** The entry number whose low 32 bits {@code v} holds (the newest such below {@code tail}). */
    private long entry(long v) {
        return tail - (((int) tail - (int) v) & LOW32);
    }

    private static long fingerprint(int h) {
        return (h | 1) & LOW32; // never 0, so a used slot is never 0
    }

    /** The slot a probe for hash {@code h} starts at in a table of {@code mask + 1} (lookups and prefetches alike). */
    private static int firstSlot(int h, int mask) {
        return (h >>> 1) & mask;
    }

    /**
     * The home of the entry stored as {@code v}, from its fingerprint alone: a probe for hash
     * {@code h} starts at its bits above bit 0, which the fingerprint keeps ({@code h | 1}).
     */
    private int homeOf(long v) {
        return (int) (v >>> 33) & tableMask;
    }

    /** Puts entry {@code e} in the first slot of its probe that is empty or no longer held. */
    private void place(int h, long e) {
        placeValue((fingerprint(h) << 32) | (e & LOW32));
    }

    /** Puts the table value {@code v} (fingerprint and entry) in the first slot of its probe that is empty or no longer held. */
    private void placeValue(long v) {
        for (int i = homeOf(v); ; i = (i + 1) & tableMask) {
            long old = table[i];
            if (old == 0) {
                occupied++;
                table[i] = v;
                return;
            }
            if (entry(old) < head) {
                table[i] = v;
                return;
            }
        }
    }

    /**
     * Empties the slots of entries no longer held at the sweep's cursor, {@value #SWEEP_SLOTS} slots
     * (one cache line, read in order): backward-shift deletion, whose every move the fingerprints
     * decide ({@link #homeOf}), so nothing but the table is read. Called by each insert once the
     * slots in use pass 3/8 of the table: the held entries fill at most 1/4 of it after a rebuild,
     * so forgotten ones are at least 1/8 and each call empties about one, as many as the inserts
     * fill, and the table is only rebuilt when the held entries grow (a steady stream of ids used to
     * rebuild it every few million inserts: 110-166 ms for E1's 1.8 M ids, in one event). Sweeping
     * at every insert instead cost E1 about 5% (the table streamed through the caches twice as often).
     */
    private void sweep() {
        long[] t = table;
        int m = tableMask;
        int c = sweepCursor;
        for (int steps = 0; steps < SWEEP_SLOTS; steps++) {
            long v = t[c];
            if (v != 0 && entry(v) < head) {
                deleteAt(c); // the slot may now hold an entry moved back: looked at again
            } else {
                c = (c + 1) & m;
            }
        }
        sweepCursor = c;
    }

    /** Empties slot {@code hole}, moving back the entries after it that may take its place. */
    private void deleteAt(int hole) {
        long[] t = table;
        int m = tableMask;
        for (int j = (hole + 1) & m; ; j = (j + 1) & m) {
            long v = t[j];
            if (v == 0) {
                break;
            }
            // the entry at j may move to the hole when the hole lies on its probe, from its home to j
            if (((j - homeOf(v)) & m) >= ((j - hole) & m)) {
                t[hole] = v;
                hole = j;
            }
        }
        t[hole] = 0;
        occupied--;
    }

    /**
     * Times the table was rebuilt in one go: filled to half (with entries the sweep cannot empty,
     * held ones counted late), or every 2^30 inserts. Growth is not counted: {@link #growths()}.
     */
    long rebuilds() {
        return rebuilds;
    }

    /** Times the table grew (its entries then moved over the next inserts, {@link #migrate}). */
    long growths() {
        return growths;
    }

    /** Whether entries of the table before the last growth are still being moved. */
    boolean migrating() {
        return previous != null;
    }

    /**
     * The held entries outgrew the table (they fill more than a quarter of it): a new one, at least
     * four times the held entries, takes the inserts from now on, and the old one's entries move
     * over {@value #MIGRATE_SLOTS} slots an insert ({@link #migrate}), meanwhile found in either
     * (a lookup of an absent id probes both: one miss more per event while they move). Moving them
     * at once was a stall of the size of the table: 365 ms in one event for E1's first million ids.
     * The move is over after old size / {@value #MIGRATE_SLOTS} inserts, at most 1/32 of the new
     * size, long before the new table can fill to half (its held entries start at most a quarter).
     */
    private void grow() {
        growths++;
        long held = tail - head;
        int size = table.length;
        while (held * 4 > size) {
            size *= 2;
        }
        previous = table;
        migrated = 0;
        table = new long[size];
        tableMask = size - 1;
        occupied = 0;
        sweepCursor = 0;
    }

    /** Moves the held entries of up to {@code slots} slots of the previous table into the table. */
    private void migrate(int slots) {
        long[] from = previous;
        int end = Math.min(from.length, migrated + slots);
        for (int j = migrated; j < end; j++) {
            long v = from[j];
            if (v != 0 && entry(v) >= head) {
                placeValue(v);
            }
        }
        migrated = end;
        if (end == from.length) {
            previous = null;
        }
    }

    /**
     * Rebuilds the table from the held entries, doubling it when they fill more than a quarter. Held,
     * not only live: an entry counted late, dead behind a live head, is live again if the boundary
     * moves back ({@link #expireBefore}), so it must stay findable (and the sweep cannot empty its
     * slot: sizing by the live entries alone let such entries trigger rebuild after rebuild).
     */
    private void rebuild() {
        rebuilds++;
        previous = null; // every held entry is placed again from the log
        long held = tail - head;
        int size = table.length;
        while (held * 4 > size) {
            size *= 2;
        }
        if (size != table.length) {
            table = new long[size];
            tableMask = size - 1;
            sweepCursor = 0;
        } else {
            Arrays.fill(table, 0);
        }
        occupied = 0;
        rebuiltAt = tail;
        for (long e = head; e < tail; e++) {
            place(bytes.hashAt(log.offset(e), log.length(e)), e);
        }
    }
}
