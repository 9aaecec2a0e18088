package io.railgun.engine.snapshot;

/**
 * One file of a task snapshot: its name relative to the task directory ({@code state/000012.sst},
 * {@code reservoir/00000000000000000003.rsv}), its length and the CRC32C of its bytes. Immutable.
 */
public record SnapshotFile(String name, long size, int crc32c) {
    public SnapshotFile {
        if (!SnapshotManifest.validName(name)) {
            throw new IllegalArgumentException("not a snapshot file name: '" + name + "'");
        }
        if (size < 0) {
            throw new IllegalArgumentException("negative size " + size + " of " + name);
        }
    }
}
