package dev.llmbench.internal.core;

import static org.apiguardian.api.API.Status.INTERNAL;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * What a {@link SweepFeature} says of a level or a sweep, in the forms the reports take: each report uses
 * the parts it shows and ignores the rest.
 *
 * @param title       a heading for it ({@code vs baseline}, {@code capacity}, {@code quality})
 * @param json        goes under the feature's {@link SweepFeature#key() key} in the level or sweep document
 * @param console     lines printed under the level's or the sweep's table
 * @param html        a fragment of the sweep's page, already escaped; empty for none
 * @param findings    statements for the sweep's findings, most important first
 * @param attachments files: Allure attachments, and files in the sweep's folder
 * @param violations  why the level (or sweep) fails, every one of them; empty when it passes. The sweep's
 *                    extension fails the level with all of them after the reports have written it.
 */
@API(status = INTERNAL)
public record FeatureSection(String title, Optional<JsonNode> json, List<String> console, Optional<String> html,
    List<String> findings, List<Attachment> attachments, List<String> violations) {

  public FeatureSection {
    console = List.copyOf(console);
    findings = List.copyOf(findings);
    attachments = List.copyOf(attachments);
    violations = List.copyOf(violations);
  }

  /** A section with a heading only; add its parts with the {@code with} methods. */
  public static FeatureSection titled(String title) {
    return new FeatureSection(title, Optional.empty(), List.of(), Optional.empty(), List.of(), List.of(), List.of());
  }

  public FeatureSection withJson(JsonNode node) {
    return new FeatureSection(title, Optional.of(node), console, html, findings, attachments, violations);
  }

  public FeatureSection withConsole(List<String> lines) {
    return new FeatureSection(title, json, lines, html, findings, attachments, violations);
  }

  public FeatureSection withHtml(String fragment) {
    return new FeatureSection(title, json, console, Optional.of(fragment), findings, attachments, violations);
  }

  public FeatureSection withFindings(List<String> statements) {
    return new FeatureSection(title, json, console, html, statements, attachments, violations);
  }

  public FeatureSection withAttachments(List<Attachment> files) {
    return new FeatureSection(title, json, console, html, findings, files, violations);
  }

  public FeatureSection withViolations(List<String> failures) {
    return new FeatureSection(title, json, console, html, findings, attachments, failures);
  }

  /**
   * A file a feature hands to the reports.
   *
   * @param name      shown in Allure, and the file's name (with {@code extension}) in the sweep's folder
   * @param mediaType {@code text/plain}, {@code application/json}, {@code image/svg+xml}, ...
   * @param extension without the dot
   * @param body      the bytes
   */
  public record Attachment(String name, String mediaType, String extension, byte[] body) {
    public static Attachment text(String name, String text) {
      return new Attachment(name, "text/plain", "txt", text.getBytes(StandardCharsets.UTF_8));
    }
  }
}
