package io.railgun.node.cli;

import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Sizes in settings: a whole number of bytes, optionally with a unit. Every unit is a power of 1024,
 * whatever its spelling: {@code k}, {@code kb}, {@code kib} = 1024; {@code m}, {@code mb},
 * {@code mib} = 1024²; {@code g}, {@code gb}, {@code gib} = 1024³ (case-insensitive).
 */
public final class ByteSizes {
    private static final Pattern PATTERN = Pattern.compile("([0-9]+)\\s*(b|k|kb|kib|m|mb|mib|g|gb|gib)?");

    private ByteSizes() {
    }

    /** The size in bytes; throws {@link IllegalArgumentException} with the reason. */
    public static long parse(String text) {
        var m = PATTERN.matcher(text.strip().toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw new IllegalArgumentException("not a size (bytes, or a number and a unit: 512k, 16MiB, 1g)");
        }
        String unit = m.group(2) == null ? "b" : m.group(2);
        int shift = switch (unit.charAt(0)) {
            case 'k' -> 10;
            case 'm' -> 20;
            case 'g' -> 30;
            default -> 0;
        };
        try {
            long n = Long.parseLong(m.group(1));
            if (n > (Long.MAX_VALUE >> shift)) {
                throw new IllegalArgumentException("too large a size");
            }
            return n << shift;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("too large a size");
        }
    }

    /** The shortest exact text: {@code 16MiB}, {@code 512KiB}, {@code 1000}. */
    public static String format(long bytes) {
        if (bytes != 0 && bytes % (1L << 30) == 0) {
            return (bytes >> 30) + "GiB";
        }
        if (bytes != 0 && bytes % (1L << 20) == 0) {
            return (bytes >> 20) + "MiB";
        }
        if (bytes != 0 && bytes % (1L << 10) == 0) {
            return (bytes >> 10) + "KiB";
        }
        return Long.toString(bytes);
    }
}
