package io.railgun.node.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpHeadersFactory;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpHeadersFactory;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import java.util.List;

/**
 * Builds the Netty responses an {@link HttpConnection} writes: status, the body copied into a
 * buffer of the channel's allocator, and the headers every response carries ({@code Content-Type}
 * with {@code Cache-Control: no-store}, {@code Content-Length}, {@code Date}, {@code Connection}).
 * Headers are not validated: the node sets only names and values it made. Stateless: any thread.
 */
final class HttpResponses {
    private static final HttpHeadersFactory RESPONSE_HEADERS = DefaultHttpHeadersFactory.headersFactory()
            .withValidation(false);
    private static final HttpHeadersFactory RESPONSE_TRAILERS = DefaultHttpHeadersFactory.trailersFactory()
            .withValidation(false);
    private static final CharSequence NO_STORE = HttpHeaderValues.NO_STORE;

    private HttpResponses() {}

    /**
     * A whole response; {@code body}'s first {@code length} bytes are copied before this returns.
     *
     * @param contentType null for a response without a body
     * @param headers     more headers, as name, value, name, value ..., or null
     * @param close       says {@code Connection: close}
     */
    static DefaultFullHttpResponse full(ByteBufAllocator alloc, int code, String contentType, byte[] body, int length,
                                        List<String> headers, boolean close) {
        ByteBuf content = length == 0 ? Unpooled.EMPTY_BUFFER : alloc.ioBuffer(length).writeBytes(body, 0, length);
        DefaultFullHttpResponse r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.valueOf(code),
                content, RESPONSE_HEADERS, RESPONSE_TRAILERS);
        HttpHeaders h = r.headers();
        if (contentType != null) {
            h.set(HttpHeaderNames.CONTENT_TYPE, contentType);
            h.set(HttpHeaderNames.CACHE_CONTROL, NO_STORE);
        }
        if (code != 204 && code != 304) {
            h.setInt(HttpHeaderNames.CONTENT_LENGTH, length);
        }
        h.set(HttpHeaderNames.DATE, HttpDate.now());
        if (headers != null) {
            for (int i = 0; i < headers.size(); i += 2) {
                h.set(headers.get(i), headers.get(i + 1));
            }
        }
        if (close) {
            h.set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        } else if (h.contains("Keep-Alive")) {
            h.set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
        }
        return r;
    }

    /** {@code 100 Continue}: the client may send the body it announced with {@code Expect: 100-continue}. */
    static DefaultFullHttpResponse continue100() {
        return new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.CONTINUE, Unpooled.EMPTY_BUFFER,
                RESPONSE_HEADERS, RESPONSE_TRAILERS);
    }
}
