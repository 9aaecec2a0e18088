package io.railgun.engine.snapshot;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32C;

/** CRC32C of a file's first bytes, as snapshot manifests record them. Stateless; any thread. */
public final class FileChecksum {
    private FileChecksum() {}

    /**
     * CRC32C of {@code file}[0, length).
     *
     * @throws IOException when the file cannot be read or is shorter than {@code length}
     */
    public static int of(Path file, long length) throws IOException {
        CRC32C crc = new CRC32C();
        ByteBuffer buf = ByteBuffer.allocateDirect(256 * 1024);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            long p = 0;
            while (p < length) {
                buf.clear().limit((int) Math.min(buf.capacity(), length - p));
                int n = ch.read(buf, p);
                if (n < 0) {
                    throw new IOException(file + " ends at " + p + ", before " + length);
                }
                buf.flip();
                crc.update(buf);
                p += n;
            }
        }
        return (int) crc.getValue();
    }
}
