package dev.llmbench.launch;

/**
 * One line of a server's log and when it was read.
 *
 * @param text    the line, without its line end
 * @param atNanos {@link System#nanoTime()} when it was read
 * @param backlog whether it was already in the file when reading began, so its time says nothing
 */
record LogLine(String text, long atNanos, boolean backlog) {}
