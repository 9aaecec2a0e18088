package io.railgun.node.cli;

/**
 * A configuration the node refuses to start with: an unknown key, a bad value, a missing file.
 * Carries a stable machine code and a message that names the source (flag, environment variable or
 * file key) and says how to fix it. The CLI prints the message alone, without a stack trace, and
 * exits with code 2.
 */
public final class ConfigException extends RuntimeException {
    /** A key or variable that is not a setting. */
    public static final String UNKNOWN_KEY = "unknown_key";
    /** A value that does not parse or is out of range. */
    public static final String INVALID_VALUE = "invalid_value";
    /** Settings that contradict each other. */
    public static final String CONFLICT = "conflict";
    /** A configuration or secret file that cannot be read. */
    public static final String UNREADABLE_FILE = "unreadable_file";

    private final String code;

    public ConfigException(String code, String message) {
        super(message, null, false, false);
        this.code = code;
    }

    public String code() {
        return code;
    }
}
