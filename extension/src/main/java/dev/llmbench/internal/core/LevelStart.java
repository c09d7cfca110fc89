package dev.llmbench.internal.core;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.internal.load.LevelPlan;
import org.apiguardian.api.API;

/**
 * A level about to run: its plan and its position in the sweep.
 *
 * @param index 1-based position among the sweep's planned levels
 * @param total how many levels the sweep planned
 */
@API(status = INTERNAL)
public record LevelStart(LevelPlan plan, int index, int total) {}
