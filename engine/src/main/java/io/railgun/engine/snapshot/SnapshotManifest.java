package io.railgun.engine.snapshot;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * What a task snapshot holds, and its wire format (the body of {@code GET
 * /internal/v1/tasks/{topic}/{partition}/snapshot}, also kept as {@value #FILE_NAME} in the snapshot
 * directory). Format version 1, all numbers little-endian:
 *
 * <pre>
 *  offset  size  field
 *  0       4     magic 0x4D534752 ("RGSM")
 *  4       1     format version (1)
 *  5       8     snapshot id (chosen by the node serving it; names it in file requests)
 *  13      8     checkpoint offset: the input offset the snapshot's checkpoint resumes at
 *  21      8     created at (epoch ms, for logs and age)
 *  29      4     file count n
 *  33      ...   n entries: u16 name length k, k bytes of UTF-8 name, 8 size, 4 CRC32C of the file
 *  end-4   4     CRC32C of every byte before it
 * </pre>
 *
 * A name is a relative path of one directory ({@code state} or {@code reservoir}) and one file name
 * of letters, digits, {@code .}, {@code _} and {@code -} (never {@code .} or {@code ..}), so no name
 * can point outside the task directory: readers reject anything else. A reader also rejects an
 * unknown magic or version, a bad checksum and trailing bytes, with a message saying which.
 * Immutable and thread-safe.
 */
public record SnapshotManifest(long snapshotId, long checkpointOffset, long createdAtMs, List<SnapshotFile> files) {
    public static final int MAGIC = 0x4D534752;
    public static final byte VERSION = 1;
    /** The manifest's file in a snapshot directory (not itself part of {@link #files}). */
    public static final String FILE_NAME = "SNAPSHOT";
    public static final List<String> DIRECTORIES = List.of("state", "reservoir");
    private static final int MAX_NAME_BYTES = 255;

    public SnapshotManifest {
        files = List.copyOf(files);
    }

    /** Total bytes of the files. */
    public long totalBytes() {
        long n = 0;
        for (SnapshotFile f : files) {
            n += f.size();
        }
        return n;
    }

    /** The file of that name, or null. */
    public SnapshotFile file(String name) {
        for (SnapshotFile f : files) {
            if (f.name().equals(name)) {
                return f;
            }
        }
        return null;
    }

    /** Whether {@code name} is a file name a manifest may hold (see the class comment). */
    public static boolean validName(String name) {
        if (name == null) {
            return false;
        }
        int slash = name.indexOf('/');
        if (slash < 0 || !DIRECTORIES.contains(name.substring(0, slash))) {
            return false;
        }
        String file = name.substring(slash + 1);
        if (file.isEmpty() || file.length() > MAX_NAME_BYTES || file.equals(".") || file.equals("..")) {
            return false;
        }
        for (int i = 0; i < file.length(); i++) {
            char c = file.charAt(i);
            boolean ok = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_'
                    || c == '-';
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    public byte[] encode() {
        int size = 4 + 1 + 8 + 8 + 8 + 4 + 4;
        List<byte[]> names = new ArrayList<>(files.size());
        for (SnapshotFile f : files) {
            byte[] b = f.name().getBytes(StandardCharsets.UTF_8);
            names.add(b);
            size += 2 + b.length + 8 + 4;
        }
        ByteBuffer out = ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
        out.putInt(MAGIC).put(VERSION).putLong(snapshotId).putLong(checkpointOffset).putLong(createdAtMs)
                .putInt(files.size());
        for (int i = 0; i < files.size(); i++) {
            byte[] b = names.get(i);
            out.putShort((short) b.length).put(b).putLong(files.get(i).size()).putInt(files.get(i).crc32c());
        }
        out.putInt(crc(out.array(), size - 4));
        return out.array();
    }

    /**
     * Reads a manifest.
     *
     * @throws IllegalArgumentException when the bytes are not a manifest this build reads
     */
    public static SnapshotManifest decode(byte[] bytes) {
        if (bytes.length < 37) {
            throw new IllegalArgumentException("snapshot manifest too short (" + bytes.length + " bytes)");
        }
        ByteBuffer in = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        if (in.getInt() != MAGIC) {
            throw new IllegalArgumentException("not a snapshot manifest (bad magic)");
        }
        byte version = in.get();
        if (version != VERSION) {
            throw new IllegalArgumentException("snapshot manifest version " + version + " is not readable by this build"
                    + " (reads " + VERSION + "): run the same Railgun version on every node");
        }
        if (in.getInt(bytes.length - 4) != crc(bytes, bytes.length - 4)) {
            throw new IllegalArgumentException("snapshot manifest checksum mismatch");
        }
        long id = in.getLong();
        long offset = in.getLong();
        long created = in.getLong();
        int n = in.getInt();
        if (n < 0 || n > (bytes.length - 37) / 14) {
            throw new IllegalArgumentException("snapshot manifest lists " + n + " files in " + bytes.length + " bytes");
        }
        List<SnapshotFile> files = new ArrayList<>(n);
        try {
            for (int i = 0; i < n; i++) {
                byte[] name = new byte[Short.toUnsignedInt(in.getShort())];
                in.get(name);
                files.add(new SnapshotFile(new String(name, StandardCharsets.UTF_8), in.getLong(), in.getInt()));
            }
        } catch (java.nio.BufferUnderflowException e) {
            throw new IllegalArgumentException("snapshot manifest truncated", e);
        }
        if (in.position() != bytes.length - 4) {
            throw new IllegalArgumentException("snapshot manifest has " + (bytes.length - 4 - in.position())
                    + " unexpected trailing bytes");
        }
        return new SnapshotManifest(id, offset, created, files);
    }

    private static int crc(byte[] b, int length) {
        CRC32C c = new CRC32C();
        c.update(b, 0, length);
        return (int) c.getValue();
    }
}
