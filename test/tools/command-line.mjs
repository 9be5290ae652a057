// The command line of the repository's node tools (`npm run soak -- --help`, `node
// test/tools/release.mjs --help`, …), so that every one answers the same way: `--help` (or `-h`)
// prints the usage on stdout and exits 0 before the tool does anything; an unknown flag, a flag
// without its value or a stray argument is one line on stderr naming it and pointing at --help,
// exit status 2, no stack trace. The usage is built from the same declarations parseArgs reads,
// so a flag cannot be accepted without being listed, nor listed without its default.

import { parseArgs } from "node:util";

/**
 * @typedef {object} Flag
 * @property {"string" | "boolean"} type
 * @property {string} help what the flag does
 * @property {string | boolean} [default] given to parseArgs, and shown as the default
 * @property {string} [defaultText] the default in words, where it is not a value (`a random one`)
 * @property {string} [value] the value's name in the usage (`N`, `DIR`); `VALUE` when absent
 * @property {boolean} [multiple]
 *
 * @typedef {object} Tool
 * @property {string} command how a user starts the tool, as the usage and the errors name it: its npm
 *   script (`npm run soak`), else `node <file>`
 * @property {string} about what the tool does: paragraphs, separated by a blank line (each is wrapped anew)
 * @property {Record<string, Flag>} [flags]
 * @property {{ synopsis: string, help: string }} [positionals] the arguments besides the flags (`<step>`) and what
 *   they are, if the tool takes any
 */

/** A request the tool cannot carry out as given: one line on stderr, exit status 2. */
export function usageError(tool, message) {
  process.stderr.write(`${tool.command}: ${message} (${withArguments(tool)} --help lists the options)\n`);
  process.exit(2);
}

/** The command as arguments follow it: npm passes a script's arguments on after `--`. */
const withArguments = (tool) => (tool.command.startsWith("npm run ") ? `${tool.command} --` : tool.command);

/** `--seed N` / `--check`: the flag as the usage shows it. */
const flagSynopsis = (name, flag) => (flag.type === "boolean" ? `--${name}` : `--${name} ${flag.value ?? "VALUE"}`);

/** The default as the usage shows it; a string flag must say its default, in words if not a value. */
function defaultOf(name, flag) {
  if (flag.defaultText !== undefined) return flag.defaultText;
  if (flag.type === "boolean") return flag.default ? "on" : "off";
  if (flag.default === undefined) throw new Error(`command-line.mjs: --${name} has neither a default nor a defaultText`);
  return String(flag.default);
}

/** `text` in lines of at most WIDTH columns, the ones after the first indented by `indent`. */
function wrapped(text, indent) {
  const lines = [""];
  for (const word of text.split(" ")) {
    const line = lines.at(-1);
    if (line && indent + line.length + 1 + word.length > WIDTH) lines.push(word);
    else lines[lines.length - 1] = line ? `${line} ${word}` : word;
  }
  return lines.join(`\n${" ".repeat(indent)}`);
}
const WIDTH = 100;

/** Text of paragraphs (separated by a blank line), each wrapped anew to WIDTH. */
const paragraphs = (text) =>
  text
    .split(/\n\s*\n/)
    .map((paragraph) => wrapped(paragraph.replace(/\s+/g, " ").trim(), 0))
    .join("\n\n");

/** The usage text: `Usage: …` first, then what the tool does, then every flag with its default. */
export function usageOf(tool) {
  const flags = Object.entries(tool.flags ?? {});
  const rows = [
    ...flags.map(([name, flag]) => [flagSynopsis(name, flag), `${flag.help} (default: ${defaultOf(name, flag)})`]),
    ["-h, --help", "this text"],
  ];
  const width = Math.max(...rows.map(([synopsis]) => synopsis.length)) + 2;
  const rest = [tool.positionals?.synopsis, flags.length ? "[options]" : undefined].filter(Boolean);
  const synopsis = rest.length ? `${withArguments(tool)} ${rest.join(" ")}` : tool.command;
  return [
    `Usage: ${synopsis}`,
    "",
    paragraphs(tool.about),
    ...(tool.positionals ? ["", paragraphs(tool.positionals.help)] : []),
    "",
    "Options:",
    ...rows.map(([flag, help]) => `  ${flag.padEnd(width)}${wrapped(help, 2 + width)}`),
    "",
  ].join("\n");
}

/** parseArgs's error as one line naming the flag or argument (its own message suggests `--` and runs on). */
function problemOf(error) {
  const message = String(error?.message ?? error);
  const quoted = /'([^']*)'/.exec(message)?.[1];
  switch (error?.code) {
    case "ERR_PARSE_ARGS_UNKNOWN_OPTION":
      return `unknown option ${quoted}`;
    case "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL":
      return `unexpected argument ${JSON.stringify(quoted)}`;
    case "ERR_PARSE_ARGS_INVALID_OPTION_VALUE":
      return /argument missing/.test(message) ? `${quoted?.replace(/ <value>$/, "")} needs a value` : message.split("\n")[0];
    default:
      throw error;
  }
}

/**
 * The tool's flags and arguments from `argv`. With `--help` (anywhere), prints the usage and
 * exits 0; with a flag it does not take, exits 2 (usageError). Returns parseArgs's `{ values,
 * positionals }` otherwise.
 *
 * @param {Tool} tool
 * @param {string[]} [argv]
 */
export function readCommandLine(tool, argv = process.argv.slice(2)) {
  const options = { help: { type: "boolean", short: "h" } };
  for (const [name, { type, default: value, multiple }] of Object.entries(tool.flags ?? {}))
    options[name] = { type, ...(value === undefined ? {} : { default: value }), ...(multiple ? { multiple } : {}) };
  const usage = usageOf(tool); // built first: a flag without its default fails here, on every run
  // Help first, whatever else is on the line (up to a `--`): `--help` after a mistyped flag still answers.
  const end = argv.indexOf("--");
  if ((end < 0 ? argv : argv.slice(0, end)).some((arg) => arg === "--help" || arg === "-h")) {
    process.stdout.write(usage);
    process.exit(0);
  }
  try {
    return parseArgs({ args: argv, options, strict: true, allowPositionals: Boolean(tool.positionals) });
  } catch (error) {
    usageError(tool, problemOf(error));
  }
}
