package io.railgun.node.http;

import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;

/** The Date header of responses, formatted once a second. Thread-safe (a benign race re-formats). */
final class HttpDate {
    private static volatile long second = Long.MIN_VALUE;
    private static volatile String text = "";

    private HttpDate() {}

    static String now() {
        long nowSecond = System.currentTimeMillis() / 1000;
        if (nowSecond != second) {
            text = DateTimeFormatter.RFC_1123_DATE_TIME.format(ZonedDateTime.now(ZoneOffset.UTC));
            second = nowSecond;
        }
        return text;
    }
}
