/**
 * Several deployments side by side under the same load ({@link Deployment}, {@link Deployments}): each level
 * measured on each, read as {@link DeploymentLevels} and asserted with {@link DeploymentLevelsAssert}, with the
 * Pareto chart of throughput against latency.
 */
package dev.llmbench.deployments;
