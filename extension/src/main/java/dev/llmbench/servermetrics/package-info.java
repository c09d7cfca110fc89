/**
 * What the server says about its own work during each level, read from the Prometheus {@code /metrics} the
 * machinery scrapes around it ({@link dev.llmbench.server.ServerFigures}): speculative decoding's acceptance,
 * KV-cache use, preemptions and the queue, under vLLM's, SGLang's and llama.cpp's names; in every report of a level.
 * A user needs nothing to turn it on: a server that publishes the figures has them read.
 */
package dev.llmbench.servermetrics;
