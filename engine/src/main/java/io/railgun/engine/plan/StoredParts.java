package io.railgun.engine.plan;

import io.railgun.engine.state.StateWriter;
import java.util.Arrays;

/**
 * The form in which the {@link HotTier} stores a key in the cold tier: whole, or as a patch of the
 * nodes changed since its last stored part ({@link KeyRecordCodec#PATCH}). Per slot it keeps what
 * that choice needs of the stored value: the patches stored on top of its last whole part, and its
 * bytes (whole part and patches).
 *
 * <p>A patch is written when the stored value allows one — there is one and it is current in the
 * other nodes, the nodes were not laid out again since, it holds fewer than {@value #MAX_PATCHES}
 * patches (which bounds what a cold load carries) — and when it pays: at most half the whole
 * value (a patch barely smaller saves little and lengthens the stored value), the stored value
 * with it at most twice the whole one (FRAUD's keys shrink as their events expire: patches on a
 * whole part written full kept values 2.8x their state). A card with a long window full and a
 * short one changing writes the short one. Owned by the task's thread, as its hot tier.
 */
final class StoredParts {
    static final int MAX_PATCHES = 4;
    /** Bytes per slot here. */
    static final int BYTES_PER_SLOT = 1 + 4;

    private final KeyRecordCodec codec;
    private byte[] patches = new byte[0]; // per slot: patches stored on top of its last whole part
    private int[] storedBytes = new int[0]; // per slot: bytes of its stored value, whole part and patches
    private final StateWriter whole = new StateWriter();
    private final StateWriter patch = new StateWriter();
    private int allNodes; // the change bits of every node

    StoredParts(KeyRecordCodec codec) {
        this.codec = codec;
    }

    /** A key loaded into {@code slot}: its stored value has {@code bytes} bytes in {@code parts} parts. */
    void loaded(int slot, int bytes, int parts) {
        storedBytes[slot] = bytes;
        patches[slot] = (byte) Math.min(MAX_PATCHES, parts - 1);
    }

    /** A new key in {@code slot}: nothing stored. */
    void inserted(int slot) {
        patches[slot] = 0;
    }

    /**
     * Serialises the key at {@code slot} to be stored: a patch of the nodes of {@code changed} when
     * {@code patchable} (its stored copy is current in the other nodes, which were not laid out
     * again since), the rules above allow and it pays, else whole; the stored value is then taken
     * to be what it was plus that. {@link #isPatch} tells which.
     */
    StateWriter write(KeyRecords records, int slot, int keyLength, boolean patchable, int changed) {
        whole.clear();
        codec.write(records, slot, true, 0, keyLength, whole);
        StateWriter value = whole;
        if (patchable && patches[slot] < MAX_PATCHES && (changed & allNodes) != allNodes) {
            patch.clear();
            codec.write(records, slot, false, changed, keyLength, patch);
            if (2 * patch.length() <= whole.length() && storedBytes[slot] + patch.length() <= 2 * whole.length()) {
                value = patch;
            }
        }
        patches[slot] = value == whole ? 0 : (byte) (patches[slot] + 1);
        storedBytes[slot] = value == whole ? whole.length() : storedBytes[slot] + patch.length();
        return value;
    }

    /** Whether {@code value} (from {@link #write}) is a patch. */
    boolean isPatch(StateWriter value) {
        return value == patch;
    }

    /** The arrays grew to {@code slots}. */
    void grow(int slots) {
        patches = Arrays.copyOf(patches, slots);
        storedBytes = Arrays.copyOf(storedBytes, slots);
    }

    /** The nodes were laid out again; {@code allNodes}: the change bits of every node now. */
    void relaidOut(int allNodes) {
        this.allNodes = allNodes;
    }
}
