package dev.llmbench.agents;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.llmbench.client.ChatMessage;
import dev.llmbench.internal.workload.BadInputException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The agent trace readers: what each format gives, and every bad input refused with its file, line, field and fix. */
class AgentTraceReaderTests {

  static final String DIR = "src/test/resources/dev/llmbench/agents/";

  private static AgentTraceReader.Read read(String name, AgentTrace.Format format) {
    return AgentTraceReader.read(Path.of(DIR + name), format, 0);
  }

  @Test
  void ourFormatGivesSessionsTheirTurnsToolTimesAndSubAgentsInsideTheirParent() {
    AgentTraceReader.Read read = read("agents.jsonl", AgentTrace.Format.LLMBENCH);
    assertThat(read.blockTokens()).isEqualTo(64);
    assertThat(read.sessions()).extracting(AgentSession::id).containsExactly("a1", "a2");
    assertThat(read.allSessions()).isEqualTo(4);
    AgentSession a1 = read.sessions().get(0);
    assertThat(a1.turns()).extracting(AgentTurn::toolMillis).containsExactly(200.0, 0.0, 0.0);
    assertThat(a1.turns()).extracting(AgentTurn::outputTokens).containsExactly(4, 4, 4);
    assertThat(a1.turns().get(0).tool()).isEqualTo("run_tests");
    assertThat(a1.turns().get(1).inputs().get(0).tool()).isTrue();
    assertThat(a1.subAgents()).containsOnlyKeys(1);
    assertThat(a1.subAgents().get(1)).extracting(AgentSession::id).containsExactly("a1/explore", "a1/review");
    // A sub-agent without a system prompt of its own shares its parent's: the prefix they share.
    assertThat(a1.subAgents().get(1).get(1).opening()).containsExactly(ChatMessage.system("You are a coding agent."));
    assertThat(a1.requests()).isEqualTo(6);
    assertThat(a1.subAgentCount()).isEqualTo(2);
  }

  @Test
  void equalBlockIdsGiveEqualTextAndATurnWithoutIdsTextOfItsOwn() {
    AgentSession a1 = read("agents.jsonl", AgentTrace.Format.LLMBENCH).sessions().get(0);
    List<ChatMessage> tool = AgentWorkload.messages(a1, 1, 64);
    assertThat(tool).singleElement().satisfies(m -> {
      assertThat(m.role()).isEqualTo("user");
      assertThat(m.content()).startsWith(AgentWorkload.TOOL_RESULT);
      assertThat(m.content().substring(AgentWorkload.TOOL_RESULT.length()).split(" ")).hasSize(40);
    });
    assertThat(BlockWords.text(40, new long[] {7}, 64, 1)).isEqualTo(BlockWords.text(40, new long[] {7}, 64, 2))
        .isEqualTo(BlockWords.text(64, new long[] {7}, 64, 3).substring(0, BlockWords.text(40, new long[] {7}, 64, 3).length()));
    assertThat(BlockWords.text(40, null, 64, 1)).isNotEqualTo(BlockWords.text(40, null, 64, 2));
  }

  @Test
  void aiperfMooncakeSessionsTakeTheNextRowsDelayAsTheToolTimeAndTheirStartFromTheFirstRow() {
    AgentTraceReader.Read read = read("mooncake-sessions.jsonl", AgentTrace.Format.MOONCAKE);
    assertThat(read.blockTokens()).isEqualTo(512);
    assertThat(read.sessions()).extracting(AgentSession::id).containsExactly("sess-1", "sess-2", "row-6");
    AgentSession s1 = read.sessions().get(0);
    assertThat(s1.turns()).extracting(AgentTurn::toolMillis).containsExactly(30.0, 10.5, 0.0);
    assertThat(s1.turns()).extracting(t -> t.inputs().get(0).tokens()).containsExactly(600, 100, 0);
    AgentSession s2 = read.sessions().get(1);
    assertThat(s2.startMillis()).isEqualTo(40.0);
    assertThat(s2.opening()).containsExactly(ChatMessage.system("You are helpful."));
    assertThat(AgentWorkload.messages(s2, 1, 512)).containsExactly(ChatMessage.user("[tool result] {\"temperature\": 21}"));
  }

  @Test
  void wekaConversationsSendWhatTheirLiveHistoryLacksWithTheirThinkTimeAndSubAgentsBetweenRequests() {
    AgentTraceReader.Read read = read("weka.jsonl", AgentTrace.Format.WEKA);
    assertThat(read.blockTokens()).isEqualTo(64);
    assertThat(read.sessions()).extracting(AgentSession::id).containsExactly("trace_a1", "trace_b2");
    assertThat(read.sessions()).extracting(AgentSession::line).containsExactly(1L, 12L);
    AgentSession a1 = read.sessions().get(0);
    // in 50 of which 20 the system prompt; then 80 - 50 - 4; then 120 - 80 - 4.
    assertThat(a1.turns()).extracting(t -> t.inputs().get(0).tokens()).containsExactly(30, 26, 36);
    assertThat(a1.turns()).extracting(AgentTurn::outputTokens).containsExactly(4, 4, 4);
    // think_time 0.05 s; then no think_time: 0.56 - 0.3 - api_time 0.2 (AIPerf's end-to-start delay).
    assertThat(a1.turns().get(0).toolMillis()).isEqualTo(50.0);
    assertThat(a1.turns().get(1).toolMillis()).isCloseTo(60.0, org.assertj.core.data.Offset.offset(1e-9));
    // agent_007 between requests 1 and 2: spawned after turn 1; agent_008, with no request after it, left out.
    assertThat(a1.subAgents()).containsOnlyKeys(1);
    AgentSession sub = a1.subAgents().get(1).get(0);
    assertThat(sub.id()).isEqualTo("trace_a1::sa:agent_007");
    assertThat(sub.opening()).containsExactly(ChatMessage.system(BlockWords.system(10))); // fresh: its own prompt
    assertThat(sub.turns()).extracting(t -> t.inputs().get(0).tokens()).containsExactly(15, 12);
    assertThat(sub.turns().get(0).toolMillis()).isEqualTo(20.0);
    assertThat(a1.requests()).isEqualTo(5);
  }

  @Test
  void aWekaRequestWithANegativeThinkTimeIsRefused() {
    refused("weka-negative.jsonl", AgentTrace.Format.WEKA, " line 1, field \"requests[1].think_time\": -2 is negative; "
        + "expected seconds, at least 0: a time between requests cannot run backwards");
  }

  private static void refused(String name, AgentTrace.Format format, String message) {
    assertThatThrownBy(() -> read(name, format)).isInstanceOf(BadInputException.class).hasMessage(DIR + name + message);
  }

  @Test
  void aForkIsReadOnASubAgentAndRefusedOnASessionWithoutAParent() {
    AgentSession a = read("fork.jsonl", AgentTrace.Format.LLMBENCH).sessions().get(0);
    assertThat(a.subAgents().get(0)).extracting(AgentSession::id, AgentSession::fork)
        .containsExactly(org.assertj.core.groups.Tuple.tuple("a/fork", true), org.assertj.core.groups.Tuple.tuple("a/fresh", false));
    refused("fork-without-parent.jsonl", AgentTrace.Format.LLMBENCH, " line 1, field \"fork\": is on a session without "
        + "\"parent\"; expected fork only on a sub-agent's first row: it starts from its parent's history");
  }

  @Test
  void aSubAgentWhoseParentDoesNotExistIsRefused() {
    refused("no-parent.jsonl", AgentTrace.Format.LLMBENCH, " line 2, field \"parent\": \"ghost\" is no session of this "
        + "file; expected the id of a session of this file that spawns \"b\"");
  }

  @Test
  void aCycleOfParentsIsRefused() {
    refused("cycle.jsonl", AgentTrace.Format.LLMBENCH, " line 1, field \"parent\": \"b\" closes a cycle of parents: "
        + "a -> b -> a; expected parents that end at a session without one");
  }

  @Test
  void aNegativeGapIsRefused() {
    refused("negative-gap.jsonl", AgentTrace.Format.LLMBENCH, " line 1, field \"tool_ms\": -5 is negative; expected "
        + "milliseconds, at least 0: a time between turns cannot run backwards");
  }

  @Test
  void aToolResultForACallThatWasNeverMadeIsRefused() {
    refused("tool-without-call.jsonl", AgentTrace.Format.LLMBENCH, " line 2, field \"role\": is \"tool\", a tool result "
        + "for a call that was never made: turn 0 (line 1) calls no tool; expected \"user\", or tool_ms or tool on the "
        + "turn before");
  }

  @Test
  void turnsOutOfOrderAreRefused() {
    refused("out-of-order.jsonl", AgentTrace.Format.LLMBENCH, " line 2, field \"turn\": is 2: comes after turn 0 of "
        + "session \"a\" (line 1), its turns out of order; expected turn 1: each session's turns 0, 1, 2, ... in the "
        + "file's order");
  }

  @Test
  void aSubAgentSpawnedAfterItsParentsLastTurnIsRefused() {
    refused("spawn-after-last.jsonl", AgentTrace.Format.LLMBENCH, " line 3, field \"spawn_after\": is 1, but session "
        + "\"a\" has 2 turn(s), none after it to join at; expected 0 to 0: a sub-agent ends before a later turn of its "
        + "parent");
  }

  @Test
  void blockIdsThatDoNotCoverTheInputAreRefused() {
    refused("wrong-blocks.jsonl", AgentTrace.Format.LLMBENCH, " line 1, field \"hash_ids\": 1 ids for input_tokens 100 "
        + "in blocks of 64 tokens; expected 2 ids (one a block, the last may be partial), or another blockTokens in "
        + "@AgentTrace");
  }

  @Test
  void aiperfHistoryRowsAreRefusedForDeltaRows() {
    refused("history-mode.jsonl", AgentTrace.Format.MOONCAKE, " line 1, field \"message_mode\": missing (AIPerf's "
        + "default is \"history\": each row the whole recorded conversation); expected \"delta\": each row's messages "
        + "are what the client adds, the server's live reply threaded between them");
  }

  @Test
  void aLaterTurnsTimestampIsRefusedForItsDelay() {
    refused("later-timestamp.jsonl", AgentTrace.Format.MOONCAKE, " line 2, field \"timestamp\": is on a later turn of "
        + "session \"s\"; expected delay (ms after the previous turn's reply) on every turn but a session's first; "
        + "timestamp only on its first");
  }

  @Test
  void aMissingFileIsRefusedWithWhereItWasLookedFor() {
    assertThatThrownBy(() -> read("none.jsonl", AgentTrace.Format.LLMBENCH)).isInstanceOf(BadInputException.class)
        .hasMessage(Path.of(DIR + "none.jsonl").toAbsolutePath() + ": does not exist; expected a path relative to the "
            + "working directory (the module's folder under Maven) or absolute");
  }
}
