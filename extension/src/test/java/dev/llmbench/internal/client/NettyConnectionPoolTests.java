package dev.llmbench.internal.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.util.concurrent.Future;
import java.net.URI;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The pool's health answer. Netty's SimpleChannelPool asks for the next pooled connection from inside the answer's
 * listener, so a "not fresh" given at once recursed once per stale connection: 10,000 agents back from a tool gap
 * longer than the keep-alive overflowed the event loop's stack, and every request hung until its idle timeout
 * (scripts/agents-bench.sh, benchmarks/README.md). The answer must come on a later task.
 */
class NettyConnectionPoolTests {

  private final NioEventLoopGroup group = new NioEventLoopGroup(1);
  private final NettyConnectionPool pool = new NettyConnectionPool(new NettyChannelSetup(group,
      ConnectionOptions.plain(URI.create("http://127.0.0.1:9/"), "", Duration.ofSeconds(1)),
      Timeouts.of(Duration.ofSeconds(5), Duration.ofSeconds(5))), Duration.ofSeconds(2));

  @AfterEach
  void stop() {
    group.shutdownGracefully(0, 0, TimeUnit.SECONDS);
  }

  @Test
  void aClosedConnectionIsRefusedOnALaterTaskNotOnTheAskersStack() {
    EmbeddedChannel closed = new EmbeddedChannel();
    closed.close();
    Future<Boolean> answer = pool.fresh(closed);
    assertThat(answer.isDone()).as("answered on the asker's stack").isFalse();
    closed.runPendingTasks();
    assertThat(answer.getNow()).isFalse();
  }

  @Test
  void anOpenConnectionNeverReleasedIsFreshAtOnce() {
    EmbeddedChannel open = new EmbeddedChannel();
    Future<Boolean> answer = pool.fresh(open);
    assertThat(answer.isDone()).isTrue();
    assertThat(answer.getNow()).isTrue();
    open.finishAndReleaseAll();
  }
}
