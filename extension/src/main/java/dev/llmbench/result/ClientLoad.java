package dev.llmbench.result;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.time.Duration;
import org.apiguardian.api.API;

/**
 * What measuring a level cost the client itself, so that a reader (and the analysis) can tell when the
 * instrument, not the server, may have set the figures. The wake-up lag is how late a thread of this JVM
 * that asked to wake after 2 ms actually ran, sampled all through the level: every time the client takes
 * (a send, a chunk's arrival) can be late by about as much.
 *
 * @param cores            processors the JVM may use
 * @param clientCpu        CPU time of the threads that sent and read the level's requests, from each one's
 *                         first send to its last completion
 * @param clientCpuShare   {@code clientCpu} over (window x cores), 0..1
 * @param clientWaitShare  how long the threads of {@code clientCpu} were ready to run but waited for a core
 *                         (Linux's run-queue wait) over (window x cores); {@code clientCpuShare} plus this is
 *                         what the client asked of the cores; NaN when the JVM cannot tell (off Linux)
 * @param clientWaitPerRun how long those threads waited for a core, on average, each time they were ready to run:
 *                         how late the client took its times whenever it was, ZERO when the JVM cannot tell
 * @param processCpuShare  CPU time of the whole JVM over (wall time x cores) while the level ran, 0..1; an
 *                         embedded engine runs in this JVM too
 * @param machineCpuShare  how busy the machine's CPUs were while the level ran, every process included, 0..1;
 *                         NaN when the JVM cannot tell
 * @param wakeupLagP50     median wake-up lag
 * @param wakeupLagP90     90th percentile of the wake-up lag
 * @param wakeupLagMax     the longest wake-up lag
 * @param eventsPerSecond  streamed events (chunks) the client read per second of the window
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record ClientLoad(int cores, Duration clientCpu, double clientCpuShare, double clientWaitShare,
    Duration clientWaitPerRun, double processCpuShare, double machineCpuShare, Duration wakeupLagP50, Duration wakeupLagP90, Duration wakeupLagMax, double eventsPerSecond) {}
