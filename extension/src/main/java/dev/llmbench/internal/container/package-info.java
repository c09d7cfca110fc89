/**
 * Engines in containers: the server of a {@code @LaunchContainer} suite started from an image through
 * Testcontainers (an optional dependency: only {@link dev.llmbench.internal.container.Containers} is loaded
 * without it, and names it when it is missing), its log written to a file and followed for the startup
 * phases as a launched process's is, and the container stopped and removed when the run ends.
 */
@API(status = INTERNAL)
package dev.llmbench.internal.container;

import static org.apiguardian.api.API.Status.INTERNAL;

import org.apiguardian.api.API;
