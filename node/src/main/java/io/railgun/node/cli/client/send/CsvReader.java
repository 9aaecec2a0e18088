package io.railgun.node.cli.client.send;

import io.railgun.client.FieldType;
import io.railgun.node.cli.Suggestions;

import java.io.BufferedReader;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * CSV events: a header row naming stream fields (ignoring case, in any order, not necessarily all
 * of them), then one event per row, each cell converted by its field's type with
 * {@link FieldConverter}. Single-threaded.
 */
final class CsvReader implements EventReader {
    private final BufferedReader source;
    private final CsvRecords records;
    private final List<String> columns = new ArrayList<>();
    private final List<FieldType> types = new ArrayList<>();

    /**
     * Reads the header.
     *
     * @param fields the stream's fields and types, in declaration order
     * @throws InputException for an empty input or a header that names no field, an unknown one or one twice
     */
    CsvReader(BufferedReader in, Map<String, FieldType> fields) throws IOException, InputException {
        this.source = in;
        this.records = new CsvRecords(in);
        CsvRecords.Record header = records.next();
        if (header == null) {
            throw new InputException(1, "the input is empty; a CSV input starts with a header row naming the fields: "
                    + String.join(",", fields.keySet()));
        }
        Map<String, String> byLowerName = new LinkedHashMap<>();
        fields.keySet().forEach(name -> byLowerName.put(name.toLowerCase(Locale.ROOT), name));
        Set<String> seen = new HashSet<>();
        for (String cell : header.cells()) {
            // a spreadsheet may start the file with a byte order mark
            String column = cell == null ? "" : cell.replace("\uFEFF", "").strip();
            String field = byLowerName.get(column.toLowerCase(Locale.ROOT));
            if (field == null) {
                String near = Suggestions.closest(column, fields.keySet());
                throw new InputException(header.line(), "header column '" + column + "' is not a field of the stream"
                        + (near == null ? "" : " (did you mean '" + near + "'?)") + "; its fields: "
                        + String.join(", ", fields.keySet()));
            }
            if (!seen.add(field)) {
                throw new InputException(header.line(), "header names field '" + field + "' twice");
            }
            columns.add(field);
            types.add(fields.get(field));
        }
    }

    @Override
    public InputRow next() throws IOException, InputException {
        CsvRecords.Record record = records.next();
        if (record == null) {
            return null;
        }
        List<String> cells = record.cells();
        if (cells.size() != columns.size()) {
            throw new InputException(record.line(), cells.size() + (cells.size() == 1 ? " value" : " values")
                    + " where the header has " + columns.size() + " columns (" + String.join(",", columns) + ")");
        }
        Map<String, Object> event = new LinkedHashMap<>();
        for (int i = 0; i < cells.size(); i++) {
            try {
                event.put(columns.get(i), FieldConverter.convert(types.get(i), cells.get(i)));
            } catch (IllegalArgumentException e) {
                throw new InputException(record.line(), "field '" + columns.get(i) + "': " + e.getMessage());
            }
        }
        return new InputRow(record.line(), event);
    }

    @Override
    public void close() throws IOException {
        source.close();
    }
}
