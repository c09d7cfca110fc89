/**
 * The values read off a result: a level's figures as {@link Distribution}s and {@link Rate}s with their
 * {@link ConfidenceInterval}s, what the analysis found ({@link Finding} of a {@link FindingKind}), and what
 * a level did: how it offered load ({@link LoadShape}), why it stopped ({@link StopReason}), its steady
 * state ({@link SteadyState}), its warm-up ({@link WarmupReport}), the SLO it was held to
 * ({@link ServiceLevels}), the client's own cost ({@link ClientLoad}), decode speed as client and server
 * saw it ({@link DecodeRates}) and the network's round trip ({@link RoundTrip}).
 *
 * <p>You need it when you read a {@code SweepLevelResult} or {@code SweepResult} in code, beyond what the
 * fluent assertions of {@code dev.llmbench.assertions} already check.
 */
package dev.llmbench.result;
