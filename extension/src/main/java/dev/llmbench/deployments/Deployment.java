package dev.llmbench.deployments;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.llmbench.LlmEndpoint;
import dev.llmbench.Slo;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Repeatable;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.apiguardian.api.API;

/**
 * One of several deployments that every sweep of the method or class runs against, to compare them: each
 * level becomes one test per deployment ({@code C=8 · int4}), measured deployment after deployment at each
 * load, and the sweep's table, charts and analysis put them side by side, ending with which deployment
 * gives the most goodput under the {@link Slo}, and at which load.
 *
 * <pre>{@code
 * @Deployment(name = "nvfp4", baseUrl = "http://gpu-node-1:8000")
 * @Deployment(name = "int4", baseUrl = "http://gpu-node-2:8000", model = "kimi-int4")
 * class WhichDeployment {
 *   @ConcurrencySweep({1, 8, 32})
 *   void compare(SweepLevelResult level, DeploymentLevels atThisLoad) {
 *     assertThat(atThisLoad).deployment("int4").isAtLeastAsFastAs("nvfp4");
 *   }
 * }
 * }</pre>
 *
 * <p>Unset attributes come from {@link LlmEndpoint} and its settings (timeouts, API key). The setting
 * {@code llmbench.deployments} replaces every {@code @Deployment} without a code change:
 * {@code nvfp4=http://gpu-node-1:8000;int4=http://gpu-node-2:8000,model=kimi-int4}, or
 * {@code mla=embedded:mla-pcie;gqa=embedded:gqa-dense} for embedded engines, and
 * {@code nvfp4=http://gpu-node-1:8000,gpus=8,gpu-hour-price=2.5} to price one.
 *
 * <p>In a class that launches its server ({@code @LaunchServer}, {@code @LaunchContainer}), a deployment without a
 * URL is a candidate the suite launches itself, with its {@link #serve()} parameters: one candidate at a time, each
 * started, measured at every level of the sweep, and stopped before the next ({@link ServeParam} crosses them).
 */
@Target({ElementType.METHOD, ElementType.TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Repeatable(Deployments.class)
@API(status = EXPERIMENTAL, since = "0.1")
public @interface Deployment {

  /**
   * {@return how reports and tests call it: letters, digits, {@code .}, {@code _} and {@code -}; unique in the suite}
   */
  String name();

  /** {@return server root such as {@code http://gpu-node-2:8000}; empty for an embedded engine} */
  String baseUrl() default "";

  /** {@return model id; empty for {@link LlmEndpoint#model()}, else the first id {@code /v1/models} lists} */
  String model() default "";

  /** {@return {@code chat} or {@code completions}; empty for {@link LlmEndpoint#api()}} */
  String api() default "";

  /** {@return the embedded engine's profile when {@link #baseUrl()} is empty, e.g. {@code mla-pcie}} */
  String embeddedProfile() default "";

  /** {@return GPUs this deployment holds, for its dollars per million tokens; 0 for {@code @DeploymentFacts(gpuCount)}} */
  int gpuCount() default 0;

  /** {@return dollars per GPU-hour of this deployment; 0 for {@code @DeploymentFacts(gpuHourPrice)}} */
  double gpuHourPrice() default 0;

  /**
   * {@return a launched candidate's serve parameters, {@code name=value} each, applied to the class's
   * {@code @LaunchServer} or {@code @LaunchContainer} command as a {@link ServeParam}'s are; empty with neither
   * {@link #baseUrl()} nor {@link #embeddedProfile()} for the command as it stands}
   */
  String[] serve() default {};
}
