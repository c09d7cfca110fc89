package dev.llmbench.launch;

import static org.apiguardian.api.API.Status.INTERNAL;

import org.apiguardian.api.API;

/**
 * One line of a server's log and when it was read.
 *
 * @param text    the line, without its line end
 * @param atNanos {@link System#nanoTime()} when it was read
 * @param backlog whether it was already in the file when reading began, so its time says nothing
 */
@API(status = INTERNAL)
public record LogLine(String text, long atNanos, boolean backlog) {}
