package dev.llmbench.internal.report;

import io.qameta.allure.AllureLifecycle;
import io.qameta.allure.model.Label;
import io.qameta.allure.model.TestResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Where a sweep's first level sits in Allure: its title path (the tree's branch), its labels (suite,
 * package, class, method) and its start. The sweep's summary result takes the same place and starts just
 * before it, so Allure's tree (sorted by start) shows the summary first among the levels.
 */
record AllureSweepPlace(List<String> titlePath, List<Label> labels, long start) {

  /** Labels of the first level's own run (its invocation, its thread) or its writer, not of where it sits. */
  private static final List<String> OWN = List.of("junit.platform.uniqueid", "thread", "framework");

  /** The place of the Allure test running on this thread, if one is. */
  static Optional<AllureSweepPlace> ofCurrentTest(AllureLifecycle lifecycle) {
    Optional<String> uuid = lifecycle.getCurrentTestCase();
    if (uuid.isEmpty()) return Optional.empty();
    AtomicReference<AllureSweepPlace> place = new AtomicReference<>();
    lifecycle.updateTestCase(uuid.get(), (TestResult t) -> place.set(new AllureSweepPlace(
        List.copyOf(Objects.requireNonNullElse(t.getTitlePath(), List.of())),
        t.getLabels().stream().filter(l -> !OWN.contains(l.getName()))
            .map(l -> new Label().setName(l.getName()).setValue(l.getValue())).toList(),
        t.getStart() == null ? System.currentTimeMillis() : t.getStart())));
    return Optional.ofNullable(place.get());
  }

  /** The summary's labels: the levels' own, and LLMBench as the framework that wrote it. */
  List<Label> summaryLabels() {
    List<Label> all = new ArrayList<>(labels);
    all.add(new Label().setName("framework").setValue("llmbench"));
    return all;
  }
}
