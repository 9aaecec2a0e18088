package io.railgun.node.http;

import static io.railgun.node.http.IsoTimestamps.parseMillis;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/** The ISO-8601 forms of timestamps, and docs/http-api.md's table of them, checked against each other. */
class IsoTimestampsTest {
    private static final long TEN_UTC = Instant.parse("2024-01-01T10:00:00Z").toEpochMilli();

    @Test
    void everyDocumentedFormGivesItsInstant() {
        assertThat(parseMillis("2024-01-01T10:00:00Z")).isEqualTo(TEN_UTC);
        assertThat(parseMillis("2024-01-01T12:00:00.5+02:00")).isEqualTo(TEN_UTC + 500);
        assertThat(parseMillis("2024-01-01T12:00+0200")).isEqualTo(TEN_UTC);
        assertThat(parseMillis("2024-01-01T05:00:00-05")).isEqualTo(TEN_UTC);
        assertThat(parseMillis("2024-01-01T12:00:30+02:00:30")).isEqualTo(TEN_UTC);
        // without Z or an offset: UTC; a date alone: its midnight UTC
        assertThat(parseMillis("2024-01-01T10:00:00")).isEqualTo(TEN_UTC);
        assertThat(parseMillis("2024-01-01T10:00")).isEqualTo(TEN_UTC);
        assertThat(parseMillis("2024-01-01T10:00Z")).isEqualTo(TEN_UTC);
        assertThat(parseMillis("2024-01-01")).isEqualTo(Instant.parse("2024-01-01T00:00:00Z").toEpochMilli());
        assertThat(parseMillis("2024-01-01t10:00:00z")).isEqualTo(TEN_UTC);
        // digits below the millisecond are cut towards the past, also before 1970
        assertThat(parseMillis("2024-01-01T10:00:00.123999999Z")).isEqualTo(TEN_UTC + 123);
        assertThat(parseMillis("1969-12-31T23:59:59.9995Z")).isEqualTo(-1);
        assertThat(parseMillis("+10000-01-01T00:00:00Z")).isEqualTo(Instant.parse("+10000-01-01T00:00:00Z").toEpochMilli());
    }

    @Test
    void otherFormsAreRefused() {
        for (String refused : List.of("2024-01-01 10:00:00Z", "20240101T100000Z", "2024-01-01T10Z", "2024-01-01T10:00:00+1",
                "2024-01-01T10:00:00,5Z", "2024-01-01T10:00:00.Z", "2024-01-01T10:00:00.", "2024-01-01T10:00:00+01:00[Europe/Paris]",
                "2024-W01-1", "2024-001", "2023-02-29", "2024-01-01T24:00:00Z", "2016-12-31T23:59:60Z", "2024-1-1",
                "2024-01-01T", "yesterday", "", "2024-01-01T10:00:00 02:00")) {
            assertThatThrownBy(() -> parseMillis(refused)).as(refused).isInstanceOf(DateTimeParseException.class);
        }
    }

    /** Every quoted example of the timestamp row of docs/http-api.md's value table does what its column says. */
    @Test
    void theDocumentsExamplesAreAcceptedAndRefusedAsItSays() throws IOException {
        Path doc = Path.of("..", "docs", "http-api.md");
        Assumptions.assumeTrue(Files.exists(doc), "run from the node module of the repository");
        String row = Files.readAllLines(doc).stream().filter(l -> l.startsWith("| `timestamp` | epoch milliseconds")).findFirst()
                .orElseThrow(() -> new AssertionError("docs/http-api.md has no timestamp row in its table of values"));
        String[] columns = row.split(" \\| ");
        assertThat(columns).hasSize(3);
        List<String> accepted = quoted(columns[1]);
        List<String> refused = quoted(columns[2]);
        assertThat(accepted).hasSizeGreaterThanOrEqualTo(8);
        assertThat(refused).hasSizeGreaterThanOrEqualTo(10);
        for (String a : accepted) {
            assertThatCode(() -> parseMillis(a)).as("documented as accepted: " + a).doesNotThrowAnyException();
        }
        for (String r : refused) {
            assertThatThrownBy(() -> parseMillis(r)).as("documented as refused: " + r)
                    .isInstanceOf(DateTimeParseException.class);
        }
    }

    private static List<String> quoted(String column) {
        List<String> examples = new ArrayList<>();
        Matcher m = Pattern.compile("`\"([^\"`]*)\"`").matcher(column);
        while (m.find()) {
            examples.add(m.group(1));
        }
        return examples;
    }
}
