package io.railgun.node.http;

import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;
import io.railgun.node.frontend.ApiException;

/** The SPEC §3 errors of requests Netty's HTTP codec could not parse. Stateless. */
final class CodecRefusals {
    private CodecRefusals() {}

    /** The answer to a request the codec refused. */
    static ApiException of(Throwable cause) {
        if (cause instanceof TooLongHttpLineException) {
            return new ApiException(414, "uri_too_long", "the request line is longer than the limit of "
                    + HttpApi.MAX_REQUEST_LINE_BYTES + " bytes: shorten the URI (send long values in a body)");
        }
        if (cause instanceof TooLongHttpHeaderException) {
            return new ApiException(431, "headers_too_large", "the request headers are larger than the limit of "
                    + HttpApi.MAX_HEADER_BYTES + " bytes: send fewer or shorter headers");
        }
        return ApiException.badRequest("bad_request", "malformed HTTP/1.1 request (" + cause.getMessage() + "): send "
                + "a request line 'METHOD /path HTTP/1.1' and valid headers");
    }
}
