// Generated from runners/protocol/runner-manifest.schema.json by scripts/gen-types.ts. Do not edit; run `npm run gen:types`.

/**
 * runners/NAME/runner.json: how the harness installs and starts a runner. Commands run in the runner's folder.
 */
export interface RunnerManifest {
  name: string;
  description: string;
  /**
   * The implementation's language, shown even when the runner is unavailable.
   */
  language: string;
  /**
   * The pinned package under test, name and version as its registry spells them (e.g. toolnexus==0.21.0), shown even when the runner is unavailable.
   */
  package: string;
  /**
   * Executables that must be on PATH; a missing one makes the runner unavailable, with that reason.
   */
  requires?: string[];
  /**
   * Installs the published port package, pinned (idempotent; fast when already installed). A non-zero exit makes the runner unavailable with the installer's own output.
   *
   * @minItems 1
   */
  install?: [string, ...string[]];
  installTimeoutMs?: number;
  /**
   * @minItems 1
   */
  start: [string, ...string[]];
  handshakeTimeoutMs?: number;
}
