/**
 * A server the run started, as the endpoint watches it whatever started it (a process, a container): the running
 * server its readiness wait checks at each poll ({@link dev.llmbench.internal.startup.RunningServer}), its log followed
 * as it is written ({@link dev.llmbench.internal.startup.ServerLog}, also for a server started elsewhere), the startup
 * phases that log shows, and how it exited. The launch feature starts servers; this package names none of it.
 */
@API(status = INTERNAL)
package dev.llmbench.internal.startup;

import static org.apiguardian.api.API.Status.INTERNAL;

import org.apiguardian.api.API;
