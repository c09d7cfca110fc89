package dev.llmbench.drift;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.llmbench.internal.client.ReplyTokens;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A deployment's replies at a load, kept on disk with what they were sent for: the reference's in the sweep's folder
 * ({@code drift/reference.<name>.<load>.json}) as soon as they are measured, so that candidates launched one after
 * another compare with them without the reference's level in memory; and each launched candidate's beside the matrix's
 * ledger ({@code <resume dir>/<candidate>/drift.<load>.json}), so that a resumed run compares with a reused reference
 * and reports a reused candidate's drift again.
 */
final class ReferenceFile {

  private static final ObjectMapper JSON = new ObjectMapper();

  private ReferenceFile() {}

  static Path of(Path sweepFolder, String reference, String load) {
    return sweepFolder.resolve("drift").resolve("reference." + safe(reference) + "." + safe(load) + ".json");
  }

  /** A deployment's replies at {@code load} in its kept folder (a launched candidate's, beside the matrix's ledger). */
  static Path kept(Path candidateFolder, String load) {
    return candidateFolder.resolve("drift." + safe(load) + ".json");
  }

  private static String safe(String s) {
    return s.replaceAll("[^A-Za-z0-9._-]", "_");
  }

  static void write(Path file, String plan, LevelReplies replies) {
    ObjectNode root = JSON.createObjectNode().put("prompts", plan).put("failed", replies.failed());
    ArrayNode all = root.putArray("replies");
    replies.replies().forEach((index, r) -> {
      ObjectNode o = all.addObject().put("index", index).put("text", r.text());
      ArrayNode keys = o.putArray("tokens");
      r.tokens().forEach(keys::add);
      ArrayNode scored = o.putArray("scored");
      for (ReplyTokens.Token t : r.scored()) {
        ObjectNode s = scored.addObject().put("key", t.key()).put("logprob", t.logprob());
        ArrayNode top = s.putArray("top");
        t.top().forEach(c -> top.addObject().put("key", c.key()).put("logprob", c.logprob()));
      }
    });
    try {
      Files.createDirectories(file.getParent());
      // Whole or not at all: a JVM killed while writing leaves the previous file, never half of one.
      Path temp = file.resolveSibling(file.getFileName() + ".tmp");
      Files.writeString(temp, JSON.writerWithDefaultPrettyPrinter().writeValueAsString(root));
      Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot keep the drift reference's replies in " + file.toAbsolutePath()
          + "; check that the folder is writable, or set llmbench.report.dir to one that is", e);
    }
  }

  /** The replies kept in {@code file} for the same prompts ({@code plan}); empty when there is none or it is another's. */
  static Optional<LevelReplies> read(Path file, String plan) {
    if (!Files.isRegularFile(file)) return Optional.empty();
    JsonNode root;
    try {
      root = JSON.readTree(file.toFile());
    } catch (IOException e) {
      return Optional.empty();
    }
    if (!plan.equals(root.path("prompts").asText())) return Optional.empty();
    Map<Integer, LevelReplies.Reply> replies = new TreeMap<>();
    for (JsonNode o : root.path("replies")) {
      List<String> keys = new ArrayList<>();
      o.path("tokens").forEach(k -> keys.add(k.asText()));
      List<ReplyTokens.Token> scored = new ArrayList<>();
      for (JsonNode s : o.path("scored")) {
        List<ReplyTokens.Choice> top = new ArrayList<>();
        s.path("top").forEach(c -> top.add(new ReplyTokens.Choice(c.path("key").asText(), c.path("logprob").asDouble())));
        scored.add(new ReplyTokens.Token(s.path("key").asText(), s.path("logprob").asDouble(), top));
      }
      replies.put(o.path("index").asInt(), new LevelReplies.Reply(o.path("text").asText(), keys, scored));
    }
    return Optional.of(new LevelReplies(replies, root.path("failed").asInt(), 0));
  }
}
