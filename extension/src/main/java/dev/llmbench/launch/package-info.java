/**
 * Server launch: the suite starts the server under test itself, as a process on this machine
 * ({@link dev.llmbench.launch.LaunchServer}) or in a container ({@link dev.llmbench.launch.LaunchContainer}), when
 * the server should live exactly as long as the run (CI, a fresh engine per suite). The endpoint then waits for it
 * with its startup phases, fails fast with its log's last lines if it exits, and stops it when the run ends.
 */
package dev.llmbench.launch;
