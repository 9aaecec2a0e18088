package io.railgun.node.security;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Data directories and files that only their owner can read: a node's data directory holds events,
 * metric state, the embedded broker's log and its Kafka credentials.
 *
 * <p>{@link #prepareDataDir} is called before anything is written to a data directory (by the node,
 * the embedded broker and {@code ./railgun broker}): it sets the process umask to {@code 077}
 * ({@link ProcessUmask}), so that every file the node, Kafka and RocksDB create from then on is
 * {@code rw-------} and every directory {@code rwx------}; it creates the directory {@code rwx------},
 * or takes the group and other bits off an existing one, so that nothing inside is reachable by
 * other users even where the umask cannot be set. An existing directory that had such bits (made by
 * an earlier version, or by hand) is tightened with the node's own subtrees inside
 * ({@value #KAFKA_DIR}/, {@value #TASKS_DIR}/), with a warning; other entries there are left as they
 * are: they are unreachable through the directory, and a data directory given by mistake (a home
 * directory) should not see all its files changed. A directory writable by every user ({@code /tmp})
 * is not changed at all, only warned about.
 *
 * <p>On file systems without POSIX permissions (Windows) these calls create the directories and
 * files without changing any mode. Stateless; thread-safe.
 */
public final class OwnerOnly {
    /** The node's subtrees in a data directory: the embedded broker's log, the tasks' reservoirs and state. */
    public static final String KAFKA_DIR = "kafka";
    public static final String TASKS_DIR = "tasks";
    private static final Set<PosixFilePermission> DIRECTORY = PosixFilePermissions.fromString("rwx------");
    private static final Set<PosixFilePermission> FILE = PosixFilePermissions.fromString("rw-------");
    private static final Set<PosixFilePermission> OTHERS = EnumSet.of(
            PosixFilePermission.GROUP_READ, PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_EXECUTE,
            PosixFilePermission.OTHERS_READ, PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_EXECUTE);
    private static final System.Logger LOG = System.getLogger(OwnerOnly.class.getName());

    private OwnerOnly() {}

    /**
     * Makes {@code dir} a data directory only its owner can enter: sets the umask, creates it (and
     * missing parents) {@code rwx------}, or tightens it as the class comment says.
     *
     * @throws IOException when it cannot be created; a directory whose mode cannot be changed (owned by
     *                     another user) is only warned about
     */
    public static void prepareDataDir(Path dir) throws IOException {
        ProcessUmask.restrict();
        createDirectories(dir);
        if (!posix(dir)) {
            return;
        }
        Set<PosixFilePermission> mode = Files.getPosixFilePermissions(dir);
        if (!hasOthers(mode)) {
            return;
        }
        String was = PosixFilePermissions.toString(mode);
        if (mode.contains(PosixFilePermission.OTHERS_WRITE)) {
            // a shared directory such as /tmp: changing it would break every other user of it
            LOG.log(System.Logger.Level.WARNING, "the data directory {0} is writable by every user ({1}) and is left as"
                    + " it is; give the node a directory of its own", dir.toAbsolutePath(), was);
            return;
        }
        try {
            int inside = 0;
            for (String subtree : List.of(KAFKA_DIR, TASKS_DIR)) {
                inside += tightenTree(dir.resolve(subtree));
            }
            tighten(dir, mode);
            LOG.log(System.Logger.Level.WARNING, "the data directory {0} was open to other users ({1}): it is now"
                    + " rwx------, and {2} files and directories of the node inside it lost their group and other"
                    + " permissions", dir.toAbsolutePath(), was, inside);
        } catch (IOException e) {
            LOG.log(System.Logger.Level.WARNING, "the data directory {0} is open to other users ({1}) and could not be"
                    + " made owner-only ({2}); run chmod 700 on it", dir.toAbsolutePath(), was, e.toString());
        }
    }

    /** Creates {@code dir} and its missing parents {@code rwx------}; leaves existing ones as they are. */
    public static void createDirectories(Path dir) throws IOException {
        if (posix(dir.toAbsolutePath().getRoot())) {
            Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(DIRECTORY));
        } else {
            Files.createDirectories(dir);
        }
    }

    /**
     * Writes {@code content} to {@code file} atomically (a temporary file {@code rw-------} next to it,
     * then renamed): a reader sees the old file or the new one, and the content is never readable by others.
     */
    public static void write(Path file, byte[] content) throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        Path tmp = posix(dir)
                ? Files.createTempFile(dir, file.getFileName().toString(), ".tmp", PosixFilePermissions.asFileAttribute(FILE))
                : Files.createTempFile(dir, file.getFileName().toString(), ".tmp");
        try {
            Files.write(tmp, content);
            try {
                Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /** The attributes to create a file {@code rw-------} with ({@code Files.createFile}, {@code FileChannel.open}). */
    public static FileAttribute<?>[] fileAttributes(Path file) {
        return posix(file.toAbsolutePath().getParent())
                ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(FILE)}
                : new FileAttribute<?>[0];
    }

    /** Takes the group and other bits off an existing file or directory; true when it had some. */
    public static boolean tighten(Path path) throws IOException {
        if (!posix(path)) {
            return false;
        }
        return tighten(path, Files.getPosixFilePermissions(path, LinkOption.NOFOLLOW_LINKS));
    }

    private static boolean tighten(Path path, Set<PosixFilePermission> mode) throws IOException {
        if (!hasOthers(mode)) {
            return false;
        }
        Set<PosixFilePermission> owner = EnumSet.copyOf(mode);
        owner.removeAll(OTHERS);
        Files.setPosixFilePermissions(path, owner);
        return true;
    }

    /** Tightens {@code root} and everything under it (symbolic links are not followed nor changed). */
    private static int tightenTree(Path root) throws IOException {
        if (!Files.isDirectory(root, LinkOption.NOFOLLOW_LINKS)) {
            return 0;
        }
        int changed = 0;
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path p : walk.toList()) {
                if (!Files.isSymbolicLink(p) && tighten(p)) {
                    changed++;
                }
            }
        }
        return changed;
    }

    private static boolean hasOthers(Set<PosixFilePermission> mode) {
        for (PosixFilePermission p : mode) {
            if (OTHERS.contains(p)) {
                return true;
            }
        }
        return false;
    }

    private static boolean posix(Path path) {
        return path != null && path.getFileSystem().supportedFileAttributeViews().contains("posix");
    }
}
