/** A configuration that cannot work; the message names the option and what to fix. */
export class ConfigError extends Error {
  constructor(
    readonly option: string,
    reason: string,
  ) {
    super(`Invalid ChainLens config: ${option}: ${reason}`);
    this.name = 'ConfigError';
  }
}
