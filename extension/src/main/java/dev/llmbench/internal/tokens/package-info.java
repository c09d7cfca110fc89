/**
 * Prompts built to token lengths: counting a prompt's tokens as the server bills them (its tokenize route,
 * probe requests' {@code usage.prompt_tokens}, or a local {@code tokenizer.json}), synthetic prompts of an
 * exact length aligned against that count before a level's load, and the shared-prefix workload's texts.
 */
@API(status = INTERNAL)
package dev.llmbench.internal.tokens;

import static org.apiguardian.api.API.Status.INTERNAL;

import org.apiguardian.api.API;
