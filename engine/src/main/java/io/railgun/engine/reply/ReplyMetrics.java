package io.railgun.engine.reply;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;

/**
 * The metrics of one reply, by name in the stream's creation order: two parallel arrays behind a
 * read-only {@link Map}, so a reply costs no hash table. Writers that know the class read
 * {@link #name}/{@link #value} by index; others use it as any map (lookups scan: a stream has few
 * metrics). Immutable once built; the arrays are the caller's and must not change afterwards.
 */
public final class ReplyMetrics extends AbstractMap<String, Object> {
    private static final ReplyMetrics EMPTY = new ReplyMetrics(new String[0], new Object[0], 0);

    private final String[] names;
    private final Object[] values;
    private final int size;

    private ReplyMetrics(String[] names, Object[] values, int size) {
        this.names = names;
        this.values = values;
        this.size = size;
    }

    /** The first {@code size} names and values, taken as they are (not copied). */
    public static ReplyMetrics of(String[] names, Object[] values, int size) {
        Objects.checkFromToIndex(0, size, Math.min(names.length, values.length));
        return size == 0 ? EMPTY : new ReplyMetrics(names, values, size);
    }

    public String name(int i) {
        Objects.checkIndex(i, size);
        return names[i];
    }

    public Object value(int i) {
        Objects.checkIndex(i, size);
        return values[i];
    }

    @Override
    public int size() {
        return size;
    }

    private int indexOf(Object name) {
        for (int i = 0; i < size; i++) {
            if (names[i].equals(name)) {
                return i;
            }
        }
        return -1;
    }

    @Override
    public boolean containsKey(Object name) {
        return indexOf(name) >= 0;
    }

    @Override
    public Object get(Object name) {
        int i = indexOf(name);
        return i < 0 ? null : values[i];
    }

    @Override
    public Set<Entry<String, Object>> entrySet() {
        return new AbstractSet<>() {
            @Override
            public int size() {
                return size;
            }

            @Override
            public Iterator<Entry<String, Object>> iterator() {
                return new Iterator<>() {
                    private int next;

                    @Override
                    public boolean hasNext() {
                        return next < size;
                    }

                    @Override
                    public Entry<String, Object> next() {
                        if (next >= size) {
                            throw new NoSuchElementException();
                        }
                        int i = next++;
                        return new SimpleImmutableEntry<>(names[i], values[i]);
                    }
                };
            }
        };
    }
}
