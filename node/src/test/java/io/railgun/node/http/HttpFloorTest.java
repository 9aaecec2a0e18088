package io.railgun.node.http;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The benchmark's floor ({@code bench/run e2e --node http-floor}) answers events through real HTTP. */
class HttpFloorTest {

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void answersEveryEventWithItsReply(boolean hop) throws Exception {
        try (HttpApi api = HttpFloor.start(0, hop)) {
            TestHttp http = new TestHttp(api.uri());
            assertThat(http.call("PUT", "/v1/streams/payments", "{\"fields\": {\"id\": \"string\", \"ts\":"
                    + " \"timestamp\", \"card\": \"string\"}, \"eventId\": \"id\", \"timestamp\": \"ts\","
                    + " \"partitioners\": [\"card\"]}").status()).isEqualTo(201);
            for (int i = 0; i < 3; i++) {
                TestHttp.Response r = http.post("/v1/streams/payments/events",
                        "{\"id\": \"e" + i + "\", \"ts\": 1000, \"card\": \"c\"}");
                assertThat(r.status()).isEqualTo(200);
                assertThat(r.json().path("metrics").path("s").asDouble()).isEqualTo(1.0);
            }
            TestHttp.Response batch = http.post("/v1/streams/payments/events:batch",
                    "[{\"id\": \"b1\", \"ts\": 1000, \"card\": \"c\"}, {\"id\": \"b2\", \"ts\": 1000, \"card\": \"d\"}]");
            assertThat(batch.status()).isEqualTo(200);
        }
    }
}
