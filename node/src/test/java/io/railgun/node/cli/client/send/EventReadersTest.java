package io.railgun.node.cli.client.send;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.railgun.client.FieldType;
import java.io.BufferedReader;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** CSV rows typed by the stream's fields, NDJSON lines as written, both with the line of each event. */
class EventReadersTest {
    private static final Map<String, FieldType> FIELDS = new LinkedHashMap<>();

    static {
        FIELDS.put("id", FieldType.STRING);
        FIELDS.put("ts", FieldType.TIMESTAMP);
        FIELDS.put("card", FieldType.STRING);
        FIELDS.put("amount", FieldType.DOUBLE);
        FIELDS.put("mcc", FieldType.LONG);
        FIELDS.put("online", FieldType.BOOLEAN);
    }

    private static List<InputRow> all(EventReader reader) throws Exception {
        List<InputRow> rows = new ArrayList<>();
        InputRow row;
        while ((row = reader.next()) != null) {
            rows.add(row);
        }
        return rows;
    }

    private static CsvReader csv(String text) throws Exception {
        return new CsvReader(new BufferedReader(new StringReader(text)), FIELDS);
    }

    @Test
    void csvCellsBecomeTypedValuesUnderTheFieldsDeclaredNames() throws Exception {
        List<InputRow> rows = all(csv("\uFEFFID,Amount,card,ts,online,mcc\ne1,12.5,c1,1700000000000,true,5411\ne2,,c2,"
                + "2024-01-01T10:00:00Z,,\n"));
        assertThat(rows).hasSize(2);
        assertThat(rows.get(0).line()).isEqualTo(2);
        assertThat(rows.get(0).event()).containsExactly(Map.entry("id", "e1"), Map.entry("amount", 12.5),
                Map.entry("card", "c1"), Map.entry("ts", 1_700_000_000_000L), Map.entry("online", true),
                Map.entry("mcc", 5411L));
        Map<String, Object> second = rows.get(1).event();
        assertThat(second).containsEntry("ts", "2024-01-01T10:00:00Z").containsEntry("amount", null)
                .containsEntry("online", null).containsEntry("mcc", null);
    }

    @Test
    void aHeaderColumnThatIsNoFieldIsRefusedWithTheClosestField() {
        assertThatThrownBy(() -> csv("id,amuont\ne1,1\n")).isInstanceOf(InputException.class)
                .hasMessageContaining("'amuont' is not a field").hasMessageContaining("did you mean 'amount'?");
        assertThatThrownBy(() -> csv("id,ID\n")).hasMessageContaining("names field 'id' twice");
        assertThatThrownBy(() -> csv("")).hasMessageContaining("header row");
    }

    @Test
    void aBadRowNamesItsLineAndField() throws Exception {
        CsvReader reader = csv("id,amount\ne1,1.5\ne2,lots\n");
        assertThat(reader.next().line()).isEqualTo(2);
        assertThatThrownBy(reader::next).isInstanceOf(InputException.class)
                .hasMessage("field 'amount': expected a number for a double (digits, '.', an exponent), got 'lots'")
                .satisfies(e -> assertThat(((InputException) e).line()).isEqualTo(3));
        CsvReader ragged = csv("id,amount\ne1\n");
        assertThatThrownBy(ragged::next).hasMessageContaining("1 value where the header has 2 columns");
    }

    @Test
    void ndjsonLinesAreSentAsWrittenAndBlankLinesSkipped() throws Exception {
        var reader = new NdjsonReader(new BufferedReader(new StringReader(
                "{\"id\": \"e1\", \"amount\": 12, \"x\": null}\n\n{\"id\": 7, \"amount\": 1.5, \"ok\": true}\n")));
        List<InputRow> rows = all(reader);
        assertThat(rows).extracting(InputRow::line).containsExactly(1L, 3L);
        assertThat(rows.get(0).event().keySet()).containsExactly("id", "amount", "x");
        assertThat(rows.get(0).event()).containsEntry("id", "e1").containsEntry("amount", 12L).containsEntry("x", null);
        assertThat(rows.get(1).event()).containsEntry("id", 7L).containsEntry("amount", 1.5).containsEntry("ok", true);
    }

    @Test
    void aBadNdjsonLineNamesItsLine() throws Exception {
        var reader = new NdjsonReader(new BufferedReader(new StringReader("{\"id\": 1}\n[1, 2]\n{\"id\": \n")));
        reader.next();
        assertThatThrownBy(reader::next).isInstanceOf(InputException.class).hasMessageContaining("one JSON object")
                .satisfies(e -> assertThat(((InputException) e).line()).isEqualTo(2));
        assertThatThrownBy(reader::next).hasMessageContaining("not valid JSON")
                .satisfies(e -> assertThat(((InputException) e).line()).isEqualTo(3));
        var duplicate = new NdjsonReader(new BufferedReader(new StringReader("{\"id\": 1, \"id\": 2}\n")));
        assertThatThrownBy(duplicate::next).hasMessageContaining("not valid JSON").hasMessageContaining("id");
    }
}
