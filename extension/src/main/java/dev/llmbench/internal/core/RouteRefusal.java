package dev.llmbench.internal.core;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.server.EndpointNotReadyException;
import org.apiguardian.api.API;

/**
 * A route the server refused for good in the readiness wait, while the rest of it became ready: each test
 * that needs the route fails with {@link #failure()}, and only those.
 *
 * @param answered what the route answered, e.g. {@code answered HTTP 404 ...}
 * @param failure  the failure of a test that needs the route: the cause and the fix
 */
@API(status = INTERNAL)
public record RouteRefusal(EndpointRoute route, String answered, EndpointNotReadyException failure) {}
