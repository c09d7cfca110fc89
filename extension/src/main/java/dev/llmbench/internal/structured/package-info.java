/**
 * Checks of structured replies shared by features: does a reply parse as JSON, and does it match a JSON
 * Schema ({@link dev.llmbench.internal.structured.JsonReplyCheck}). Small and stable on purpose: the quality
 * feature's JSON grader and the structured-output checks both build on it.
 */
@API(status = INTERNAL)
package dev.llmbench.internal.structured;

import static org.apiguardian.api.API.Status.INTERNAL;

import org.apiguardian.api.API;
