package io.railgun.node.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Owner-only data directories: created so, tightened when older and looser, files written 0600. */
class OwnerOnlyTest {
    @TempDir
    Path dir;

    @Test
    void aNewDataDirectoryAndWhatIsCreatedInItAreTheOwnersOnly() throws IOException {
        Path data = dir.resolve("a").resolve("data");
        OwnerOnly.prepareDataDir(data);
        assertThat(mode(data)).isEqualTo("rwx------");
        assertThat(mode(data.getParent())).as("a parent it created").isEqualTo("rwx------");
        // the umask: files and directories made without asking for a mode (as Kafka and RocksDB make theirs)
        assertThat(ProcessUmask.restrict()).isTrue();
        Path file = Files.writeString(data.resolve("segment.log"), "x");
        Path sub = Files.createDirectory(data.resolve("sub"));
        assertThat(mode(file)).isEqualTo("rw-------");
        assertThat(mode(sub)).isEqualTo("rwx------");
    }

    @Test
    void anOlderLooserDataDirectoryIsTightenedWithTheNodesSubtrees() throws IOException {
        Path data = Files.createDirectory(dir.resolve("data"));
        Path segment = Files.createDirectories(data.resolve("kafka").resolve("t-0")).resolve("0.log");
        Files.writeString(segment, "x");
        Path state = Files.createDirectories(data.resolve("tasks").resolve("s.g").resolve("0")).resolve("CURRENT");
        Files.writeString(state, "x");
        Path notOurs = Files.writeString(data.resolve("notes.txt"), "x");
        for (Path p : new Path[] {data, data.resolve("kafka"), data.resolve("kafka").resolve("t-0"), data.resolve("tasks"),
                data.resolve("tasks").resolve("s.g"), data.resolve("tasks").resolve("s.g").resolve("0")}) {
            Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
        for (Path p : new Path[] {segment, state, notOurs}) {
            Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rw-r--r--"));
        }

        OwnerOnly.prepareDataDir(data);

        assertThat(mode(data)).isEqualTo("rwx------");
        assertThat(mode(data.resolve("kafka").resolve("t-0"))).isEqualTo("rwx------");
        assertThat(mode(segment)).isEqualTo("rw-------");
        assertThat(mode(data.resolve("tasks").resolve("s.g").resolve("0"))).isEqualTo("rwx------");
        assertThat(mode(state)).isEqualTo("rw-------");
        assertThat(mode(notOurs)).as("not the node's: unreachable through the directory, left as it was")
                .isEqualTo("rw-r--r--");
    }

    @Test
    void aDirectoryEveryoneMayWriteIsLeftAlone() throws IOException {
        Path shared = Files.createDirectory(dir.resolve("shared"));
        Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rwxrwxrwx"));
        OwnerOnly.prepareDataDir(shared);
        assertThat(mode(shared)).isEqualTo("rwxrwxrwx");
    }

    @Test
    void filesAreWrittenOwnerOnlyAndReplacedWhole() throws IOException {
        Path file = dir.resolve("credentials");
        OwnerOnly.write(file, "one".getBytes(StandardCharsets.UTF_8));
        assertThat(mode(file)).isEqualTo("rw-------");
        OwnerOnly.write(file, "two".getBytes(StandardCharsets.UTF_8));
        assertThat(Files.readString(file)).isEqualTo("two");
        try (var left = Files.list(dir)) {
            assertThat(left.toList()).containsExactly(file);
        }
    }

    private static String mode(Path p) throws IOException {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
    }
}
