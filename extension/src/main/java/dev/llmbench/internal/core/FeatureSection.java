package dev.llmbench.internal.core;

import static org.apiguardian.api.API.Status.INTERNAL;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * What a {@link SweepFeature} says of a level or a sweep, in the forms the reports take: each report uses
 * the parts it shows and ignores the rest.
 *
 * @param key         the feature's {@link SweepFeature#key() key}, set by {@link SweepRun#sections}; empty until then
 * @param title       a heading for it ({@code vs baseline}, {@code capacity}, {@code quality})
 * @param json        goes under the feature's key: in a level document under {@code llmbench}, in the sweep's at the top
 * @param console     lines printed under the sweep's table (a level's, in level order, then the sweep's)
 * @param html        a fragment of the level's or the sweep's page, already escaped; empty for none
 * @param lead        a fragment of the sweep's page (and of its Allure summary) shown right under the answer, before
 *                    the headline charts: the feature's part of the decision itself, already escaped, inline SVG
 *                    allowed; empty for none. Most features have none: their {@code html} follows the table.
 * @param findings    statements for the sweep's conclusions, most important first
 * @param places      where each of {@code findings} stands in the sweep's answer (as many as there are findings):
 *                    {@link AnswerPlace#DETAIL} unless the feature said otherwise
 * @param charts      chart name (file name without extension) to SVG document, shown and written with the sweep's own
 * @param attachments Allure attachments, on the level's result or the sweep's
 * @param files       files in the sweep's folder, named {@code name.extension}
 * @param violations  why the level fails, every one of them; empty when it passes. The level's extension fails
 *                    the level with all of them after the reports have written it ({@link SweepRun#violations}).
 */
@API(status = INTERNAL)
public record FeatureSection(String key, String title, Optional<JsonNode> json, List<String> console, Optional<String> html,
    Optional<String> lead, List<String> findings, List<AnswerPlace> places, Map<String, String> charts,
    List<Attachment> attachments, List<Attachment> files, List<String> violations) {

  /**
   * Where a finding stands in the sweep's answer, which every report shows in this order (each feature's findings of one
   * place in the order of the features): the decision reads "which deployment, at what cost in quality, speed and start
   * time" although each part comes from another feature, and no feature names another.
   */
  public enum AnswerPlace {
    /** Which deployment to choose and how fast each is. */
    CHOICE,
    /** What each costs in the quality of its replies (drift from a reference, accuracy). */
    QUALITY,
    /** What each costs to start. */
    STARTUP,
    /** Everything else, where the feature's order puts it. */
    DETAIL
  }

  public FeatureSection {
    console = List.copyOf(console);
    findings = List.copyOf(findings);
    places = List.copyOf(places);
    if (places.size() != findings.size()) {
      throw new IllegalArgumentException(findings.size() + " findings with " + places.size() + " places");
    }
    charts = Collections.unmodifiableMap(new LinkedHashMap<>(charts));
    attachments = List.copyOf(attachments);
    files = List.copyOf(files);
    violations = List.copyOf(violations);
  }

  /** A section with a heading only; add its parts with the {@code with} methods. */
  public static FeatureSection titled(String title) {
    return new FeatureSection("", title, Optional.empty(), List.of(), Optional.empty(), Optional.empty(), List.of(), List.of(),
        Map.of(), List.of(), List.of(), List.of());
  }

  /** The same section under {@code key}: the sweep sets its feature's. */
  FeatureSection withKey(String key) {
    return new FeatureSection(key, title, json, console, html, lead, findings, places, charts, attachments, files, violations);
  }

  public FeatureSection withJson(JsonNode node) {
    return new FeatureSection(key, title, Optional.of(node), console, html, lead, findings, places, charts, attachments, files,
        violations);
  }

  /** The section with {@code fragment} shown right under the sweep page's answer ({@link #lead()}). */
  public FeatureSection withLead(String fragment) {
    return new FeatureSection(key, title, json, console, html, Optional.of(fragment), findings, places, charts, attachments, files,
        violations);
  }

  public FeatureSection withConsole(List<String> lines) {
    return new FeatureSection(key, title, json, lines, html, lead, findings, places, charts, attachments, files, violations);
  }

  public FeatureSection withHtml(String fragment) {
    return new FeatureSection(key, title, json, console, Optional.of(fragment), lead, findings, places, charts, attachments, files,
        violations);
  }

  /** The section with {@code statements}, each in its {@link AnswerPlace#DETAIL} place. */
  public FeatureSection withFindings(List<String> statements) {
    return withFindings(statements, statements.stream().map(s -> AnswerPlace.DETAIL).toList());
  }

  /** The section with {@code statements}, each at its place in the sweep's answer ({@code places}, one each). */
  public FeatureSection withFindings(List<String> statements, List<AnswerPlace> at) {
    return new FeatureSection(key, title, json, console, html, lead, statements, at, charts, attachments, files, violations);
  }

  public FeatureSection withCharts(Map<String, String> svgByName) {
    return new FeatureSection(key, title, json, console, html, lead, findings, places, svgByName, attachments, files, violations);
  }

  public FeatureSection withAttachments(List<Attachment> shown) {
    return new FeatureSection(key, title, json, console, html, lead, findings, places, charts, shown, files, violations);
  }

  public FeatureSection withFiles(List<Attachment> written) {
    return new FeatureSection(key, title, json, console, html, lead, findings, places, charts, attachments, written, violations);
  }

  public FeatureSection withViolations(List<String> failures) {
    return new FeatureSection(key, title, json, console, html, lead, findings, places, charts, attachments, files, failures);
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

    public static Attachment json(String name, String json) {
      return new Attachment(name, "application/json", "json", json.getBytes(StandardCharsets.UTF_8));
    }

    /** {@code name.extension}: the file's name in the sweep's folder. */
    public String fileName() {
      return name + "." + extension;
    }
  }
}
