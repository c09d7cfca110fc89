package dev.llmbench.launch;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A candidate's serve parameters applied to a launch command, as {@code vllm bench sweep serve} applies a
 * {@code --serve-params} combination to its {@code --serve-cmd} ({@code ParameterSweepItem.apply_to_cmd}): a key is a
 * flag ({@code max-num-seqs} is {@code --max-num-seqs}, {@code -np} stays {@code -np}); a flag already in the command
 * has its value replaced, another is appended; {@code true} is the flag alone, {@code false} its {@code --no-} form (as
 * vLLM's and llama-server's boolean flags take it), and an empty value leaves the flag out (SGLang's store-true flags).
 * A key the command names as {@code ${key}} is put there instead of appended: a model file, a quantisation, a
 * positional argument.
 */
final class ServeArgs {

  private ServeArgs() {}

  /** {@code command} with {@code serve} applied, in its order; placeholders other than the serve keys stay. */
  static List<String> apply(List<String> command, Map<String, String> serve) {
    List<String> cmd = new ArrayList<>(command);
    for (Map.Entry<String, String> p : serve.entrySet()) {
      String key = p.getKey();
      String value = p.getValue();
      String placeholder = "${" + key + "}";
      if (cmd.stream().anyMatch(w -> w.contains(placeholder))) {
        cmd.replaceAll(w -> w.replace(placeholder, value));
        cmd.removeIf(String::isEmpty); // a placeholder that was a whole word and is given no value
        continue;
      }
      String flag = flag(key);
      String no = flag.startsWith("--") ? "--no-" + flag.substring(2) : null;
      int at = cmd.indexOf(flag);
      if (at < 0 && no != null) at = cmd.indexOf(no);
      boolean bool = value.equals("true") || value.equals("false");
      if (value.isEmpty()) {
        if (at >= 0) cmd.remove(at);
      } else if (bool) {
        String word = value.equals("true") || no == null ? flag : no;
        if (at >= 0) cmd.set(at, word);
        else cmd.add(word);
      } else if (at >= 0 && at + 1 < cmd.size() && !cmd.get(at).equals(no)) {
        cmd.set(at + 1, value);
      } else {
        if (at >= 0) cmd.remove(at);
        cmd.add(flag);
        cmd.add(value);
      }
    }
    return cmd;
  }

  /** {@code max-num-seqs} and {@code max_num_seqs} are {@code --max-num-seqs}; a key with its dashes is the flag. */
  static String flag(String key) {
    return key.startsWith("-") ? key : "--" + key.replace('_', '-');
  }
}
