package dev.llmbench.internal.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.llmbench.client.ErrorKind;
import dev.llmbench.internal.core.MeasuredLevel;
import dev.llmbench.testkit.Levels;
import dev.llmbench.testkit.Traces;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class LevelChartsTests {

  /**
   * Two requests: one due at 0 ms and sent at 10 ms, first token at 30 ms, done at 110 ms; one sent at 20 ms
   * that fails at 70 ms. Time zero is when the first was due.
   */
  private static MeasuredLevel twoRequests() {
    return Levels.closed(2)
        .request(Traces.at(10).scheduledAt(0).content(20, 40, 60, 80, 100).usage(5, 5).build())
        .request(Traces.at(20).failed(ErrorKind.HTTP_STATUS, 503, "busy").end(50).build())
        .build();
  }

  @Test
  void eachBarHoldsTheRequestsQueueFirstTokenAndEndOnOneAxis() {
    List<LevelCharts.Bar> bars = LevelCharts.bars(twoRequests());
    assertThat(bars).hasSize(2);
    LevelCharts.Bar ok = bars.get(0);
    assertThat(ok.queueFrom()).isCloseTo(0, within(1e-9));
    assertThat(ok.sent()).isCloseTo(0.010, within(1e-9));
    assertThat(ok.firstToken()).hasValueSatisfying(t -> assertThat(t).isCloseTo(0.030, within(1e-9)));
    assertThat(ok.end()).isCloseTo(0.110, within(1e-9));
    assertThat(ok.failed()).isFalse();
    LevelCharts.Bar failed = bars.get(1);
    assertThat(failed.sent()).isCloseTo(0.020, within(1e-9));
    assertThat(failed.end()).isCloseTo(0.070, within(1e-9));
    assertThat(failed.failed()).isTrue();
  }

  @Test
  void theTimelineDrawsQueueTtftDecodeAndTheFailureInTheirColours() {
    String svg = LevelCharts.timeline(twoRequests()).orElseThrow();
    assertThat(svg).startsWith("<svg").contains("C=2: requests over time").contains("2 requests, 1 failed")
        .contains(LevelCharts.AXIS);
    // 110 ms on ticks of 20 ms, written as multiples: no 0.6000000000000001.
    assertThat(svg).contains(">0.00</text>", ">0.06</text>", ">0.12</text>").doesNotContain("0000000");
    assertThat(count(svg, "fill=\"" + LevelCharts.QUEUE + "\"")).isEqualTo(2); // the bar and the legend's box
    assertThat(count(svg, "fill=\"" + LevelCharts.TTFT + "\"")).isEqualTo(2);
    assertThat(count(svg, "fill=\"" + LevelCharts.DECODE + "\"")).isEqualTo(2);
    assertThat(count(svg, "fill=\"" + LevelCharts.FAILED + "\"")).isEqualTo(2);
  }

  @Test
  void aLongLevelIsThinnedToEveryKthRequestAndSaysSo() {
    MeasuredLevel level = Levels.closed(4).requests(1000, i -> Traces.at(i).content(5, 6).usage(5, 2).build()).build();
    assertThat(LevelCharts.bars(level)).hasSize(334);
    assertThat(LevelCharts.timeline(level).orElseThrow()).contains("334 of 1000 requests (one in 3 by send time)");
  }

  @Test
  void overTimeCountsEveryTokenOnceAndTheMeanInFlightOfEachBin() {
    MeasuredLevel level = twoRequests();
    LevelCharts.OverTime d = LevelCharts.overTimeData(level).orElseThrow();
    double tokens = 0;
    double inFlightSeconds = 0;
    for (int b = 0; b < LevelCharts.BINS; b++) {
      tokens += d.tokens()[b] * d.width();
      inFlightSeconds += d.inFlight()[b] * d.width();
    }
    // 5 tokens of the request that succeeded; 100 ms + 50 ms in flight.
    assertThat(tokens).isCloseTo(5, within(1e-9));
    assertThat(inFlightSeconds).isCloseTo(0.150, within(1e-9));
    // The window runs from when the first request was due to the last end: 110 ms.
    assertThat(d.width() * LevelCharts.BINS).isCloseTo(0.110, within(1e-9));
    // At 50 ms both requests are in flight.
    assertThat(d.inFlight()[(int) (0.050 / d.width())]).isCloseTo(2, within(1e-9));
    String svg = LevelCharts.overTime(level).orElseThrow();
    assertThat(svg).contains("throughput and requests in flight over time");
    // Each series one path: drawn a line per step, the chart was 130 KB, once per level in the page and Allure.
    assertThat(svg.length()).isLessThan(60_000);
  }

  @Test
  void niceTicksAreOneTwoOrFiveTimesAPowerOfTen() {
    assertThat(LevelCharts.niceTick(0.11)).isCloseTo(0.02, within(1e-12));
    assertThat(LevelCharts.niceTick(33.4)).isCloseTo(5, within(1e-12));
    assertThat(LevelCharts.niceTick(600)).isCloseTo(100, within(1e-12));
  }

  private static int count(String s, String part) {
    Matcher m = Pattern.compile(Pattern.quote(part)).matcher(s);
    int n = 0;
    while (m.find()) n++;
    return n;
  }
}
