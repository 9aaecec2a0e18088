package io.railgun.node.http;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.railgun.node.frontend.ApiException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import org.assertj.core.api.AbstractThrowableAssert;
import org.assertj.core.api.ThrowableAssert;

/** Helpers of the codec tests. */
final class Codec {
    private Codec() {}

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** Asserts an ApiException with that status and code; continues on its message. */
    static AbstractThrowableAssert<?, ? extends Throwable> refused(ThrowableAssert.ThrowingCallable call, int status,
            String code) {
        return assertThatThrownBy(call)
                .isInstanceOf(ApiException.class)
                .satisfies(e -> {
                    ApiException api = (ApiException) e;
                    org.assertj.core.api.Assertions.assertThat(api.status()).as("status of: " + api.getMessage()).isEqualTo(status);
                    org.assertj.core.api.Assertions.assertThat(api.code()).as("code of: " + api.getMessage()).isEqualTo(code);
                });
    }

    /** Runs the writer into a string. */
    static String json(ApiRequest.JsonBody body) {
        GrowableBytes out = new GrowableBytes(64);
        try {
            ApiRequest.writeJson(out, body);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new String(out.array(), 0, out.length(), StandardCharsets.UTF_8);
    }
}
