/**
 * Workloads read from files and drawn from distributions: the dataset readers (ShareGPT JSON, OpenAI chat
 * JSONL, vLLM custom JSONL) behind {@link dev.llmbench.datasets.DatasetReader}, the seeded sample
 * of their rows ({@link dev.llmbench.datasets.DatasetLoader}), the length distributions of
 * synthetic prompts and of output lengths ({@link dev.llmbench.internal.workload.LengthDistribution}), and
 * the requested-versus-actual length statistics a level reports ({@link dev.llmbench.internal.workload.LengthStats}).
 *
 * <p>Every reader streams its file, one row in memory at a time, and fails on bad input before any load is
 * sent, with the file, the line, the field and what would be accepted ({@link
 * dev.llmbench.internal.workload.BadInputException}).
 */
@API(status = INTERNAL)
package dev.llmbench.internal.workload;

import static org.apiguardian.api.API.Status.INTERNAL;

import org.apiguardian.api.API;
