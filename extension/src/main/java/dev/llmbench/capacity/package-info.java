/**
 * The highest load that still meets the SLO ({@link CapacitySearch}), found by bisection and reported as a
 * {@link Capacity}, with its assertions ({@link CapacityAssert}).
 */
package dev.llmbench.capacity;
