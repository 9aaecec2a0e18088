package io.railgun.node.http;

/**
 * A reusable {@link CharSequence} view of a range of a char array: lets a JSON string go from the
 * parser's buffer into an event row without a {@code String} per value. Not thread-safe; valid until
 * the parser moves on.
 */
final class CharSlice implements CharSequence {
    private char[] chars;
    private int offset;
    private int length;

    CharSlice wrap(char[] source, int from, int count) {
        this.chars = source;
        this.offset = from;
        this.length = count;
        return this;
    }

    @Override
    public int length() {
        return length;
    }

    @Override
    public char charAt(int index) {
        return chars[offset + index];
    }

    @Override
    public CharSequence subSequence(int start, int end) {
        return new String(chars, offset + start, end - start);
    }

    @Override
    public String toString() {
        return new String(chars, offset, length);
    }
}
