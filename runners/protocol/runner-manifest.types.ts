// Generated from runners/protocol/runner-manifest.schema.json by scripts/gen-types.ts. Do not edit; run `npm run gen:types`.

/**
 * runners/NAME/runner.json: how the harness installs and starts a runner, from the published package (the default) or from a source checkout (`source`). Commands run in the runner's folder.
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
   * Asks the port's package client, in the runner's folder, whether its registry serves the pinned package, without installing it (runners/PROTOCOL.md, "Is the port obtainable here?"). Exit 0: served; 3: the client could not reach its registry at all (name resolution or connection failure); anything else: the registry answered and refused, or the client failed. Its output is the client's own words, the telling line last. Without a probe, the install alone decides.
   *
   * @minItems 1
   */
  probe?: [string, ...string[]];
  /**
   * The probe's bound (default 60000): past it the answer is hung.
   */
  probeTimeoutMs?: number;
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
  /**
   * How to build the port from a source checkout (`--source DIR`). install and start run in the runner's folder with TNC_PORT_SOURCE (the port folder, read-only) and TNC_BUILD_DIR (a folder of this runner's own for exactly this source content) in their environment; in every argument, {source} and {build} stand for those paths.
   */
  source?: {
    /**
     * The port's folder in a toolnexus checkout, e.g. golang.
     */
    subdir: string;
    /**
     * Builds the port and the runner into TNC_BUILD_DIR (idempotent; fast when already built). A non-zero exit makes the runner unavailable with the builder's own output.
     *
     * @minItems 1
     */
    install: [string, ...string[]];
    installTimeoutMs?: number;
    /**
     * @minItems 1
     */
    start: [string, ...string[]];
    handshakeTimeoutMs?: number;
  };
  /**
   * How to install other published versions of the package (`--runner NAME@VERSION`). install and start run in the runner's folder with TNC_PACKAGE_VERSION (the version) and TNC_BUILD_DIR (a folder of this runner's own for that version) in their environment; in every argument {version} and {build} stand for them.
   */
  versions?: {
    /**
     * The version the top-level install pins (the default subject NAME).
     */
    pinned: string;
    /**
     * @minItems 1
     */
    install: [string, ...string[]];
    installTimeoutMs?: number;
    /**
     * @minItems 1
     */
    start: [string, ...string[]];
    handshakeTimeoutMs?: number;
    /**
     * Prints the published versions, one per line (for `history --versions A..B`).
     *
     * @minItems 1
     */
    list?: [string, ...string[]];
  };
}
