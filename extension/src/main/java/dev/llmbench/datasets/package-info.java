/**
 * Files of your own traffic as a level's prompts ({@link Dataset}): ShareGPT, OpenAI chat and vLLM custom JSON
 * lines, read and checked whole before load.
 */
package dev.llmbench.datasets;
