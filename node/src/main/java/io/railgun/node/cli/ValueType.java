package io.railgun.node.cli;

/**
 * How the text of one setting becomes its value, and how a value is shown back (in {@code --help},
 * the logged configuration and error messages). Stateless; any thread.
 *
 * @param <T> the setting's value type
 */
public interface ValueType<T> {

    /**
     * Parses a non-blank, stripped text.
     *
     * @throws IllegalArgumentException with a message that completes "'text' is ...", e.g.
     *                                  {@code "not a port number (0-65535)"}
     */
    T parse(String text);

    /** The text that parses back to {@code value}. */
    default String format(T value) {
        return String.valueOf(value);
    }
}
