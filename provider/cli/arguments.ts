/**
 * What the package's command lines (`pulumi-semgrep`, `pulumi-semgrep-emulator`,
 * `pulumi-resource-semgrep`) share, so that they answer alike (as the repository's own tools do,
 * test/tools/command-line.mjs): `--help` or `-h` prints the usage on stdout and exits 0 before
 * anything is done; a flag the command does not take is one line on stderr naming it and
 * pointing at `--help`, exit status 2.
 */

/** `--help` or `-h` among the arguments before a `--` (after it, an argument is a value). */
export function asksForHelp(argv: readonly string[]): boolean {
  const end = argv.indexOf("--");
  return (end < 0 ? argv : argv.slice(0, end)).some((arg) => arg === "--help" || arg === "-h");
}

/**
 * node:util parseArgs's error as one line naming the flag or the argument: its own message goes
 * on to suggest `--`, which is no help here. Anything but a parseArgs error is rethrown.
 */
export function argumentProblem(error: unknown): string {
  const { code, message } = error as { code?: string; message?: string };
  const quoted = /'([^']*)'/.exec(message ?? "")?.[1];
  switch (code) {
    case "ERR_PARSE_ARGS_UNKNOWN_OPTION":
      return `unknown option ${quoted}`;
    case "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL":
      return `unexpected argument ${JSON.stringify(quoted)}`;
    case "ERR_PARSE_ARGS_INVALID_OPTION_VALUE":
      return /argument missing/.test(message ?? "") ? `${quoted?.replace(/ <value>$/, "")} needs a value` : String(message).split("\n")[0]!;
    default:
      throw error;
  }
}
