package io.railgun.node.cli.client.send;

import java.io.IOException;
import java.io.Reader;
import java.util.ArrayList;
import java.util.List;

/**
 * Splits CSV text into records (RFC 4180): fields separated by commas, records by LF or CRLF;
 * a field in double quotes may hold commas, line breaks and doubled quotes ({@code ""}). An
 * unquoted empty field is {@code null} (no value); a quoted one, {@code ""}, is the empty string.
 * Blank lines are skipped. Single-threaded.
 */
final class CsvRecords {
    /** One record and the line it starts on. */
    record Record(long line, List<String> cells) {
    }

    private final Reader in;
    private long line = 1;
    private int peeked = -2;

    CsvRecords(Reader in) {
        this.in = in;
    }

    /**
     * @return the next record, or null at the end
     * @throws InputException for a quote that is never closed, or text after a closing quote
     */
    Record next() throws IOException, InputException {
        int c = read();
        while (c == '\n' || c == '\r') {
            lineBreak(c);
            c = read();
        }
        if (c == -1) {
            return null;
        }
        long start = line;
        List<String> cells = new ArrayList<>();
        var cell = new StringBuilder();
        boolean quoted = false;
        while (true) {
            if (c == '"' && cell.isEmpty() && !quoted) {
                quoted = true;
                long quoteLine = line;
                while (true) {
                    c = read();
                    if (c == -1) {
                        throw new InputException(quoteLine, "a quoted field is never closed (a \" is missing)");
                    }
                    if (c == '"') {
                        c = read();
                        if (c != '"') {
                            break;
                        }
                    }
                    if (c == '\n') {
                        line++;
                    }
                    cell.append((char) c);
                }
                if (c != ',' && c != '\n' && c != '\r' && c != -1) {
                    throw new InputException(line, "text after a closing quote in column " + (cells.size() + 1)
                            + " (write a quote inside a quoted field as \"\")");
                }
                continue;
            }
            if (c == ',' || c == '\n' || c == '\r' || c == -1) {
                cells.add(quoted || !cell.isEmpty() ? cell.toString() : null);
                cell.setLength(0);
                quoted = false;
                if (c == ',') {
                    c = read();
                    continue;
                }
                if (c != -1) {
                    lineBreak(c);
                }
                return new Record(start, cells);
            }
            cell.append((char) c);
            c = read();
        }
    }

    /** After {@code c}, a CR or LF: consumes the LF of a CRLF and counts the line. */
    private void lineBreak(int c) throws IOException {
        if (c == '\r') {
            int next = read();
            if (next != '\n') {
                peeked = next;
            }
        }
        line++;
    }

    private int read() throws IOException {
        if (peeked != -2) {
            int c = peeked;
            peeked = -2;
            return c;
        }
        return in.read();
    }
}
