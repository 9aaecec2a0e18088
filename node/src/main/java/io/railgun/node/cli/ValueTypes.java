package io.railgun.node.cli;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.regex.Pattern;

/** The value types of the settings: what each accepts and how it is shown. */
public final class ValueTypes {
    private static final Pattern HOST_PATTERN = Pattern.compile("[A-Za-z0-9._:%\\[\\]-]+");
    private static final Pattern NODE_ID_PATTERN = Pattern.compile("[A-Za-z0-9._-]{1,100}");
    private static final Pattern SERVER_PATTERN = Pattern.compile("(\\[[0-9A-Fa-f:.]+]|[A-Za-z0-9._-]+):([0-9]{1,5})");

    /** Any text (tokens, passwords). */
    public static final ValueType<String> TEXT = text -> text;

    /** A host name or an IP address to bind to; {@code 0.0.0.0} is every interface. */
    public static final ValueType<String> HOST = text -> {
        if (!HOST_PATTERN.matcher(text).matches()) {
            throw new IllegalArgumentException("not a host name or IP address");
        }
        return text;
    };

    /** A TCP port, 0 (pick a free one) to 65535. */
    public static final ValueType<Integer> PORT = text -> {
        int port = parseInt(text, "not a port number (0-65535)");
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("not a port number (0-65535)");
        }
        return port;
    };

    /** {@code true} or {@code false}, ignoring case; a flag given without a value is {@code true}. */
    public static final ValueType<Boolean> BOOLEAN = text -> switch (text.strip().toLowerCase(java.util.Locale.ROOT)) {
        case "true" -> Boolean.TRUE;
        case "false" -> Boolean.FALSE;
        default -> throw new IllegalArgumentException("not true or false");
    };

    /** A whole number of at least 1. */
    public static final ValueType<Integer> POSITIVE_INT = text -> {
        int n = parseInt(text, "not a whole number of at least 1");
        if (n < 1) {
            throw new IllegalArgumentException("not a whole number of at least 1");
        }
        return n;
    };

    /** The rule of {@code NodeConfig}: 1-100 letters, digits, '.', '_' or '-'. */
    public static final ValueType<String> NODE_ID = text -> {
        if (!NODE_ID_PATTERN.matcher(text).matches()) {
            throw new IllegalArgumentException("not a node id (1-100 letters, digits, '.', '_' or '-')");
        }
        return text;
    };

    /** Kafka bootstrap servers: {@code HOST:PORT[,HOST:PORT...]}, IPv6 hosts in brackets. */
    public static final ValueType<String> BOOTSTRAP_SERVERS = text -> {
        for (String server : text.split(",", -1)) {
            var m = SERVER_PATTERN.matcher(server.strip());
            if (!m.matches() || Integer.parseInt(m.group(2)) < 1 || Integer.parseInt(m.group(2)) > 65_535) {
                throw new IllegalArgumentException("not a list of Kafka servers HOST:PORT[,HOST:PORT...]"
                        + " (bad entry '" + server.strip() + "')");
            }
        }
        return text.replace(" ", "");
    };

    /** A file or directory path; a leading {@code ~/} is the user's home; relative to the working directory. */
    public static final ValueType<Path> PATH = new ValueType<>() {
        @Override
        public Path parse(String text) {
            String expanded = text;
            if (text.equals("~") || text.startsWith("~/")) {
                expanded = System.getProperty("user.home") + text.substring(1);
            }
            try {
                return Path.of(expanded);
            } catch (InvalidPathException e) {
                throw new IllegalArgumentException("not a valid path (" + e.getReason() + ")");
            }
        }

        @Override
        public String format(Path value) {
            String s = value.toString();
            return value.isAbsolute() || s.startsWith(".") ? s : "./" + s;
        }
    };

    /** A duration of at least 1 ms, in milliseconds (see {@link Durations}). */
    public static final ValueType<Long> POSITIVE_DURATION = durationAtLeast(1);

    /** A duration of at least 0 ms, in milliseconds (see {@link Durations}). */
    public static final ValueType<Long> DURATION = durationAtLeast(0);

    /** A size in bytes from 1 byte to {@link Integer#MAX_VALUE} (see {@link ByteSizes}). */
    public static final ValueType<Long> BYTES = new ValueType<>() {
        @Override
        public Long parse(String text) {
            long bytes = ByteSizes.parse(text);
            if (bytes < 1 || bytes > Integer.MAX_VALUE) {
                throw new IllegalArgumentException("not a size from 1 byte to 2147483647 bytes (just under 2GiB)");
            }
            return bytes;
        }

        @Override
        public String format(Long value) {
            return ByteSizes.format(value);
        }
    };

    /** A memory size from 64 MiB to 1024 GiB, in bytes (see {@link ByteSizes}): the state memory budget. */
    public static final ValueType<Long> MEMORY_BYTES = new ValueType<>() {
        @Override
        public Long parse(String text) {
            long bytes = ByteSizes.parse(text);
            if (bytes < (64L << 20) || bytes > (1L << 40)) {
                throw new IllegalArgumentException("not a size from 64MiB to 1024GiB");
            }
            return bytes;
        }

        @Override
        public String format(Long value) {
            return ByteSizes.format(value);
        }
    };

    private ValueTypes() {
    }

    /** {@code auto} (0: min(3, brokers)) or a number of copies of at least 1. */
    public static final ValueType<Integer> TOPIC_REPLICATION = new ValueType<>() {
        @Override
        public Integer parse(String text) {
            if (text.strip().equalsIgnoreCase("auto")) {
                return io.railgun.node.NodeConfig.AUTO_TOPIC_REPLICATION;
            }
            int n = parseInt(text.strip(), "not auto or a number of copies of at least 1");
            if (n < 1 || n > Short.MAX_VALUE) {
                throw new IllegalArgumentException("not auto or a number of copies of at least 1");
            }
            return n;
        }

        @Override
        public String format(Integer value) {
            return value == io.railgun.node.NodeConfig.AUTO_TOPIC_REPLICATION ? "auto" : Integer.toString(value);
        }
    };

    /** {@code forever} (-1: nothing deleted) or a duration of at least a minute, in milliseconds. */
    public static final ValueType<Long> RETENTION = new ValueType<>() {
        @Override
        public Long parse(String text) {
            if (text.strip().equalsIgnoreCase("forever")) {
                return io.railgun.node.NodeConfig.KEEP_FOREVER;
            }
            long ms = Durations.parseMs(text);
            if (ms < 60_000) {
                throw new IllegalArgumentException("not forever or a duration of at least 1m");
            }
            return ms;
        }

        @Override
        public String format(Long value) {
            return value == io.railgun.node.NodeConfig.KEEP_FOREVER ? "forever" : Durations.format(value);
        }
    };

    private static ValueType<Long> durationAtLeast(long minMs) {
        return new ValueType<>() {
            @Override
            public Long parse(String text) {
                long ms = Durations.parseMs(text);
                if (ms < minMs) {
                    throw new IllegalArgumentException("not a duration of at least " + Durations.format(minMs));
                }
                return ms;
            }

            @Override
            public String format(Long value) {
                return Durations.format(value);
            }
        };
    }

    private static int parseInt(String text, String reason) {
        try {
            return Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(reason);
        }
    }
}
