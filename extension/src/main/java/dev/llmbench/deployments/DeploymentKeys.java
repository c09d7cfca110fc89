package dev.llmbench.deployments;

import dev.llmbench.internal.config.DeploymentSpec;
import dev.llmbench.internal.config.Setting;
import java.util.List;

/** The deployment comparison's own setting, declared beside it (the registry lists it: {@link DeploymentsRegistration}). */
final class DeploymentKeys {

  private DeploymentKeys() {}

  static final Setting<List<DeploymentSpec>> DEPLOYMENTS = new Setting<>("llmbench.deployments", "", "the `@Deployment`s",
      "deployments every sweep compares, replacing `@Deployment`: `a=http://h1:8000,model=m;b=embedded:gqa-dense`; "
          + "`gpus=8,gpu-hour-price=2.5` prices one; `c=launch,serve.max-num-seqs=64` is a candidate the class's launch "
          + "starts with those serve flags",
      DeploymentSpec::parseList);

  static final Setting<String> RESUME_DIR = new Setting<>("llmbench.deployments.resume-dir", "",
      "`<report dir>/candidates/<class>.<method>`", "where a matrix of launched candidates keeps what it measured, so that "
          + "a run stopped part way and run again reuses the candidates measured completely; `off` keeps nothing", t -> t);

  /** In the order of the settings table. */
  static final List<Setting<?>> ALL = List.of(DEPLOYMENTS, RESUME_DIR);
}
