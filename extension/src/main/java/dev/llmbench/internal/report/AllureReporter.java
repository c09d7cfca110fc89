package dev.llmbench.internal.report;

import static org.apiguardian.api.API.Status.INTERNAL;

import dev.llmbench.EndpointInfo;
import dev.llmbench.client.LlmReply;
import dev.llmbench.client.RequestFailure;
import dev.llmbench.internal.core.BenchListener;
import dev.llmbench.internal.core.FeatureSection;
import dev.llmbench.internal.core.LevelStart;
import dev.llmbench.internal.core.MeasuredLevel;
import dev.llmbench.internal.core.SweepRun;
import dev.llmbench.internal.format.Formats;
import dev.llmbench.internal.load.LevelPlan;
import dev.llmbench.result.LoadShape;
import io.qameta.allure.Allure;
import io.qameta.allure.AllureLifecycle;
import io.qameta.allure.model.Attachment;
import io.qameta.allure.model.Label;
import io.qameta.allure.model.Stage;
import io.qameta.allure.model.Status;
import io.qameta.allure.model.StatusDetails;
import io.qameta.allure.model.StepResult;
import io.qameta.allure.model.TestResult;
import io.qameta.allure.util.PropertiesUtils;
import io.qameta.allure.util.ResultsUtils;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.apiguardian.api.API;

/**
 * What Allure shows of a run: each level's parameters and documents, readiness and prompts as steps, each
 * sweep's table and charts (on its last level and as a result of its own, so a reader finds them first),
 * and the run-wide environment files. Calls into Allure only while an Allure test runs on this thread
 * (its context is thread-local), so it is harmless where Allure is not in use.
 */
@API(status = INTERNAL)
public final class AllureReporter implements BenchListener {

  private final AllureRunFiles runFiles;
  private final ReportOptions options;
  private final ThreadLocal<Deque<String>> steps = ThreadLocal.withInitial(ArrayDeque::new);
  /** Each running sweep's first level's place in Allure, until the sweep's summary result takes it. */
  private final Map<SweepRun, AllureSweepPlace> places = new ConcurrentHashMap<>();

  public AllureReporter(Path resultsDir, Optional<Path> configDir) {
    this(resultsDir, configDir, ReportOptions.DEFAULT);
  }

  public AllureReporter(Path resultsDir, Optional<Path> configDir, ReportOptions options) {
    this.runFiles = new AllureRunFiles(resultsDir, configDir);
    this.options = options;
  }

  /** The results folder: {@code allure.results.directory} as given, else as {@code allure.properties} says. */
  public static Path resultsDir(Optional<String> configured) {
    return Path.of(configured.orElseGet(() ->
        PropertiesUtils.loadAllureProperties().getProperty("allure.results.directory", "allure-results")));
  }

  private static AllureLifecycle lifecycle() {
    return Allure.getLifecycle();
  }

  private static boolean active() {
    try {
      return lifecycle().getCurrentTestCase().isPresent();
    } catch (RuntimeException | LinkageError e) {
      return false;
    }
  }

  private static void attach(String name, String mimeType, String extension, String content) {
    attach(new FeatureSection.Attachment(name, mimeType, extension, content.getBytes(StandardCharsets.UTF_8)));
  }

  private static void attach(FeatureSection.Attachment a) {
    if (active()) Allure.addAttachment(a.name(), a.mediaType(), new ByteArrayInputStream(a.body()), a.extension());
  }

  private static void parameter(String name, String value) {
    if (active()) Allure.parameter(name, value);
  }

  @Override
  public void stepStarted(String name) {
    if (!active()) return;
    String uuid = UUID.randomUUID().toString();
    lifecycle().startStep(uuid, new StepResult().setName(name));
    steps.get().push(uuid);
  }

  @Override
  public void stepFinished(String name, Throwable failure) {
    String uuid = steps.get().poll();
    if (uuid == null) return;
    lifecycle().updateStep(uuid, s -> {
      s.setStatus(failure == null ? Status.PASSED : ResultsUtils.getStatus(failure).orElse(Status.BROKEN));
      if (failure != null) ResultsUtils.getStatusDetails(failure).ifPresent(s::setStatusDetails);
    });
    lifecycle().stopStep(uuid);
  }

  @Override
  public void endpointReady(EndpointInfo endpoint) {
    runFiles.endpointReady(endpoint);
    if (!active()) return;
    // Change every run: shown, but left out of the history id.
    Allure.parameter("time to ready", Formats.duration(endpoint.timeToReady()), true);
    endpoint.startup().readySinceLaunch().ifPresent(d -> Allure.parameter("ready since launch", Formats.duration(d), true));
    if (!endpoint.startup().summary().isEmpty()) Allure.parameter("startup", endpoint.startup().summary(), true);
    endpoint.roundTrip().ifPresent(rtt -> Allure.parameter("network round trip", Formats.duration(rtt.median()), true));
    attach("readiness", "text/plain", "txt", String.join("\n", endpoint.readinessLog()));
  }

  @Override
  public void endpointNotReady(String url, List<String> log) {
    attach("readiness", "text/plain", "txt", String.join("\n", log));
  }

  @Override
  public void promptSent(String prompt) {
    attach("prompt", "text/plain", "txt", prompt);
  }

  @Override
  public void replyReceived(LlmReply reply) {
    attach("reply", "text/plain", "txt", reply.content());
    if (!reply.reasoning().isEmpty()) attach("reasoning", "text/plain", "txt", reply.reasoning());
  }

  @Override
  public void requestFailed(RequestFailure failure) {
    attach("error", "text/plain", "txt", failure.toString());
  }

  @Override
  public void levelStarted(SweepRun sweep, LevelStart level) {
    // The first level's place in Allure is kept: the sweep's summary result takes it.
    if (active() && !places.containsKey(sweep)) {
      AllureSweepPlace.ofCurrentTest(lifecycle()).ifPresent(p -> places.putIfAbsent(sweep, p));
    }
    LevelPlan plan = level.plan();
    if (plan.load() instanceof LoadShape.OpenLoop open) {
      parameter("rate", Formats.rate(open.rate().perSecond()) + " req/s");
      parameter("burstiness", Formats.number(open.burstiness()));
      open.maxConcurrency().ifPresent(c -> parameter("max concurrency", Integer.toString(c)));
    } else {
      parameter("concurrency", Integer.toString(plan.concurrency()));
    }
    parameter("requests", plan.stop().match(c -> Integer.toString(c.requests()),
        t -> "for " + Formats.duration(t.duration()), a -> "adaptive"));
    parameter("prompts", plan.workload().prompts().name());
  }

  @Override
  public void levelFinished(SweepRun sweep, MeasuredLevel level) {
    parameter("max_tokens", level.maxTokensText()); // what the requests asked, known once they were sent
    level.endpoint().deployment().ifPresent(d -> parameter("deployment", d));
    parameter("endpoint", level.endpoint().reportName());
    // Shown on the level's page, left out of its history id: the embedded engine is a simulator, never a real server.
    if (active() && level.endpoint().embedded().isPresent()) Allure.parameter("server", "the embedded simulator, not a real server", true);
    parameter("model", level.endpoint().model());
    attach(level.label() + " summary", "text/html", "html", LevelDocuments.html(sweep, level));
    attach(level.label() + " requests", "text/csv", "csv", LevelDocuments.csv(level));
    attach(level.label() + " result", "application/json", "json", LevelDocuments.json(sweep, level, options));
    LevelDocuments.charts(level).forEach((name, svg) -> attach(level.label() + " " + name, "image/svg+xml", "svg", svg));
    sweep.sections(level).forEach(f -> f.attachments().forEach(AllureReporter::attach));
  }

  @Override
  public void sweepFinished(SweepRun sweep, List<MeasuredLevel> levels) {
    Optional<AllureSweepPlace> place = Optional.ofNullable(places.remove(sweep));
    SweepSummary summary = SweepSummary.of(sweep, levels);
    summary.deployment().ifPresent(d -> runFiles.deploymentDescribed(d.describe()));
    attach("sweep table", "text/plain", "txt", summary.tableWithFindings());
    attach("findings", "application/json", "json", summary.json());
    summary.charts().forEach((name, svg) -> attach("chart: " + name, "image/svg+xml", "svg", svg));
    summary.sections().forEach(f -> f.attachments().forEach(AllureReporter::attach));
    writeSummaryResult(sweep, summary, place);
  }

  /**
   * The description a sweep's summary result gets (table, findings, charts), for levels measured elsewhere:
   * a merge of shards writes its summary result itself, from the shards' ones.
   */
  public static String summaryDescription(SweepRun sweep, List<MeasuredLevel> levels) {
    return AllureSweepDescription.html(SweepSummary.of(sweep, levels));
  }

  /**
   * The status a sweep's summary result gets for levels measured elsewhere ({@code passed}, {@code failed},
   * {@code broken}): their verdict, without the tests, which each shard's own summary result carries.
   */
  public static String summaryStatus(SweepRun sweep, List<MeasuredLevel> levels) {
    return SweepSummary.of(sweep, levels).verdict().status().label();
  }

  /**
   * The sweep as a result of its own, beside its levels: table, analysis and charts where a reader looks
   * first. Written straight to the results folder, so it needs no running test and works for a subset of
   * levels too.
   */
  private void writeSummaryResult(SweepRun sweep, SweepSummary summary, Optional<AllureSweepPlace> place) {
    if (!runFiles.inUse()) return;
    AllureLifecycle lifecycle = lifecycle();
    List<Attachment> attachments = new ArrayList<>();
    attachments.add(written(lifecycle, "sweep table", "text/plain", "txt", summary.tableWithFindings()));
    attachments.add(written(lifecycle, "findings", "application/json", "json", summary.json()));
    summary.charts().forEach((name, svg) -> attachments.add(written(lifecycle, "chart: " + name, "image/svg+xml", "svg", svg)));
    summary.sections().forEach(f -> f.attachments().forEach(a -> attachments.add(written(lifecycle, a))));
    String name = sweep.method() + " · sweep summary";
    String fullName = sweep.className() + "." + sweep.method() + " · sweep summary";
    long now = System.currentTimeMillis();
    TestResult result = new TestResult()
        .setUuid(UUID.randomUUID().toString())
        .setHistoryId(ResultsUtils.md5(fullName))
        .setTestCaseId(ResultsUtils.md5(fullName))
        .setName(name)
        .setFullName(fullName)
        .setStatus(switch (summary.verdict().status()) {
          case PASSED -> Status.PASSED;
          case FAILED -> Status.FAILED;
          case BROKEN -> Status.BROKEN;
        })
        // Allure shows the message above the description, and its categories read it: the verdict's reasons.
        .setStatusDetails(summary.verdict().passed() ? null
            : new StatusDetails().setMessage(summary.verdict().line().substring("verdict: ".length())))
        .setStage(Stage.FINISHED)
        .setStart(place.map(p -> p.start() - 1).orElse(now))
        .setStop(now)
        .setDescriptionHtml(AllureSweepDescription.html(summary))
        .setAttachments(attachments)
        .setTitlePath(place.map(AllureSweepPlace::titlePath).orElse(List.of()))
        .setLabels(place.map(AllureSweepPlace::summaryLabels).orElseGet(() -> List.of(
            new Label().setName("suite").setValue(sweep.simpleClassName()),
            new Label().setName("testClass").setValue(sweep.className()),
            new Label().setName("testMethod").setValue(sweep.method()),
            new Label().setName("package").setValue(sweep.packageName()),
            new Label().setName("framework").setValue("llmbench"))));
    lifecycle.scheduleTestCase(result);
    lifecycle.writeTestCase(result.getUuid());
  }

  private static Attachment written(AllureLifecycle lifecycle, String name, String type, String extension, String content) {
    return written(lifecycle, new FeatureSection.Attachment(name, type, extension, content.getBytes(StandardCharsets.UTF_8)));
  }

  private static Attachment written(AllureLifecycle lifecycle, FeatureSection.Attachment a) {
    String source = UUID.randomUUID() + "-attachment." + a.extension();
    lifecycle.writeAttachment(source, new ByteArrayInputStream(a.body()));
    return new Attachment().setName(a.name()).setType(a.mediaType()).setSource(source);
  }

  @Override
  public void runFinished() {
    runFiles.write();
  }
}
