package dev.llmbench.launch;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.llmbench.internal.junit.LlmEndpointExtension;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.apiguardian.api.API;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The suite starts the inference server itself, as Testcontainers starts a database: it runs the command
 * as a process on this machine, captures its output into a log file beside the reports, reads the
 * engine's startup phases from it while waiting (llama.cpp, vLLM and SGLang are recognised), fails within
 * seconds with the log's last lines if the process exits before it is ready, and stops it when the run
 * ends (SIGTERM, then SIGKILL after {@link #stopGrace()}).
 *
 * <pre>{@code
 * @LlmEndpoint
 * @LaunchServer(command = {"vllm", "serve", "Qwen/Qwen2.5-7B-Instruct", "--port", "${port}"})
 * class QwenTest { ... }
 * }</pre>
 *
 * <p>{@code ${port}} becomes a free port on 127.0.0.1, and the base URL {@code http://127.0.0.1:<port>}
 * unless {@code llmbench.base-url} names another; {@code ${java}} and {@code ${classpath}} become this JVM's
 * {@code java} and class path (a server written in Java, started from the test's own classes). No shell runs the command: give a shell one
 * ({@code sh -c "..."}) to use one. Every attribute is a setting ({@code llmbench.launch.*}), so CI can
 * launch a different server without a code change; two classes with the same command share one server.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(LlmEndpointExtension.class)
@API(status = EXPERIMENTAL, since = "0.1")
public @interface LaunchServer {

  /** {@return {@code llmbench.launch.command} (one line there): the program and its arguments} */
  String[] command();

  /** {@return {@code llmbench.launch.working-dir}: where it runs; empty for the JVM's} */
  String workingDir() default "";

  /** {@return {@code llmbench.launch.env}: extra environment, {@code NAME=value} each} */
  String[] environment() default {};

  /**
   * {@return {@code llmbench.launch.log-file}: where its output goes; empty for {@code <report dir>/server-<port>.log}}
   */
  String logFile() default "";

  /** {@return {@code llmbench.launch.stop-grace}: how long it may take to stop after SIGTERM before it is killed} */
  String stopGrace() default "";
}
