package io.railgun.node.cli.client;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * A plain text table: a header row and rows, columns padded to their widest cell, two spaces
 * between them, the last column unpadded. For the human output of the list commands; scripts use
 * {@code --json}. Single-threaded.
 */
public final class Table {
    private final List<String[]> rows = new ArrayList<>();

    public Table(String... header) {
        rows.add(header);
    }

    public Table row(String... cells) {
        rows.add(cells);
        return this;
    }

    /** Rows other than the header. */
    public int size() {
        return rows.size() - 1;
    }

    public void print(PrintWriter out) {
        int columns = rows.getFirst().length;
        int[] widths = new int[columns];
        for (String[] row : rows) {
            for (int c = 0; c < columns; c++) {
                widths[c] = Math.max(widths[c], row[c].length());
            }
        }
        for (String[] row : rows) {
            var line = new StringBuilder();
            for (int c = 0; c < columns; c++) {
                line.append(c == columns - 1 ? row[c] : String.format("%-" + widths[c] + "s  ", row[c]));
            }
            out.println(line.toString().stripTrailing());
        }
    }
}
