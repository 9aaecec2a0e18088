package io.railgun.node.http;

import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http.HttpRequest;
import io.railgun.node.frontend.ApiException;

/**
 * A request as its connection receives it: head, raw target, body pieces merged, flags of how it must
 * be answered. Owned by the connection's event loop until it is handed to a handler.
 */
final class IncomingRequest {
    final HttpRequest head;
    String rawPath;
    String rawQuery;
    ByteBuf body;
    long received;
    boolean tooLarge;
    boolean close;
    boolean keepAliveHeader;
    boolean complete;
    ApiException refusal;

    IncomingRequest(HttpRequest head) {
        this.head = head;
    }

    void dropBody() {
        if (body != null) {
            body.release();
            body = null;
        }
    }
}
