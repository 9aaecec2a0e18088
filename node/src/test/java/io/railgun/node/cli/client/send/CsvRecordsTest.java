package io.railgun.node.cli.client.send;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.StringReader;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** RFC 4180 splitting: quotes, line breaks in quotes, CRLF, NULL versus the empty string, line numbers. */
class CsvRecordsTest {

    private static List<CsvRecords.Record> all(String text) throws Exception {
        var records = new CsvRecords(new StringReader(text));
        List<CsvRecords.Record> out = new ArrayList<>();
        CsvRecords.Record r;
        while ((r = records.next()) != null) {
            out.add(r);
        }
        return out;
    }

    @Test
    void splitsFieldsAndRecordsWithTheirLines() throws Exception {
        List<CsvRecords.Record> records = all("a,b,c\n1,2,3\r\n4,5,6");
        assertThat(records).extracting(CsvRecords.Record::line).containsExactly(1L, 2L, 3L);
        assertThat(records.get(1).cells()).containsExactly("1", "2", "3");
        assertThat(records.get(2).cells()).containsExactly("4", "5", "6");
    }

    @Test
    void anUnquotedEmptyCellIsNullAndAQuotedOneTheEmptyString() throws Exception {
        assertThat(all("x,,\"\",y\n").getFirst().cells()).containsExactly("x", null, "", "y");
        assertThat(all(",\n").getFirst().cells()).containsExactly(null, null);
    }

    @Test
    void quotedFieldsHoldCommasQuotesAndLineBreaks() throws Exception {
        List<CsvRecords.Record> records = all("id,note\n1,\"a, \"\"b\"\"\nc\"\n2,plain\n");
        assertThat(records.get(1).cells()).containsExactly("1", "a, \"b\"\nc");
        assertThat(records.get(1).line()).isEqualTo(2);
        assertThat(records.get(2).line()).isEqualTo(4);
        assertThat(records.get(2).cells()).containsExactly("2", "plain");
    }

    @Test
    void blankLinesAreSkippedButCounted() throws Exception {
        List<CsvRecords.Record> records = all("a\n\n\r\nb\n\n");
        assertThat(records).extracting(CsvRecords.Record::line).containsExactly(1L, 4L);
        assertThat(records.get(1).cells()).isEqualTo(Arrays.asList("b"));
    }

    @Test
    void anUnclosedQuoteNamesTheLineItOpensOn() {
        assertThatThrownBy(() -> all("a,b\n1,\"never\nclosed\n")).isInstanceOf(InputException.class)
                .hasMessageContaining("never closed")
                .satisfies(e -> assertThat(((InputException) e).line()).isEqualTo(2));
    }

    @Test
    void textAfterAClosingQuoteIsRefused() {
        assertThatThrownBy(() -> all("a,b\n\"x\"y,2\n")).isInstanceOf(InputException.class)
                .hasMessageContaining("after a closing quote in column 1");
    }
}
