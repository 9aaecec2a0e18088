package io.railgun.node.http;

import io.railgun.node.http.RequestPath.Shape;
import java.util.ArrayList;
import java.util.List;

/**
 * Every endpoint of the API (SPEC §3): path shape, method, the token scope it needs, and its route
 * label for the request metrics ({@code "POST /v1/streams/{stream}/events"}).
 */
enum Endpoint {
    HEALTH(Shape.HEALTH, "GET", Scope.NONE),
    HEALTH_LIVE(Shape.HEALTH_LIVE, "GET", Scope.NONE),
    HEALTH_READY(Shape.HEALTH_READY, "GET", Scope.NONE),
    OPENAPI(Shape.OPENAPI, "GET", Scope.NONE),
    PROMETHEUS(Shape.PROMETHEUS, "GET", Scope.INGEST),
    CLUSTER(Shape.CLUSTER, "GET", Scope.ADMIN),
    LIST_STREAMS(Shape.STREAMS, "GET", Scope.ADMIN),
    PUT_STREAM(Shape.STREAM, "PUT", Scope.ADMIN),
    GET_STREAM(Shape.STREAM, "GET", Scope.ADMIN),
    DELETE_STREAM(Shape.STREAM, "DELETE", Scope.ADMIN),
    ADD_STATEMENT(Shape.METRICS, "POST", Scope.ADMIN),
    LIST_METRICS(Shape.METRICS, "GET", Scope.ADMIN),
    READ_METRIC(Shape.METRIC, "GET", Scope.INGEST),
    DELETE_METRIC(Shape.METRIC, "DELETE", Scope.ADMIN),
    SEND_EVENT(Shape.EVENTS, "POST", Scope.INGEST),
    SEND_BATCH(Shape.BATCH, "POST", Scope.INGEST);

    /** Route label of requests that matched no path. */
    static final String UNMATCHED = "unmatched";
    private static final Endpoint[] ALL = values(); // values() copies its array at every call

    final Shape shape;
    final String method;
    final Scope scope;
    final String route;

    Endpoint(Shape shape, String method, Scope scope) {
        this.shape = shape;
        this.method = method;
        this.scope = scope;
        this.route = method + " " + shape.template;
    }

    /** The endpoint of that path and method, or null (then the method is not allowed there). */
    static Endpoint find(Shape shape, String method) {
        for (Endpoint e : ALL) {
            if (e.shape == shape && e.method.equals(method)) {
                return e;
            }
        }
        return null;
    }

    /** The methods a path allows, for the Allow header of a 405: {@code "GET, PUT, DELETE"}. */
    static String allowed(Shape shape) {
        List<String> methods = new ArrayList<>();
        for (Endpoint e : ALL) {
            if (e.shape == shape) {
                methods.add(e.method);
            }
        }
        return String.join(", ", methods);
    }

    /** Route label of a request to a known path with a method it does not allow. */
    static String disallowedRoute(Shape shape) {
        return "other " + shape.template;
    }
}
