/**
 * The `__provider` of every resource of this package, serialized into state as code (twice per
 * resource). Each kind's provider is the exports object of its own module here
 * (`pulumi-semgrep/shims/<Kind>`), so Pulumi's serializer, finding it installed under
 * node_modules, writes only `require("pulumi-semgrep/shims/<Kind>")` into state: a few hundred
 * bytes, no path of this machine, no token, no config value, and refresh/destroy of old state run
 * the *installed* package's code. Keep these module paths stable: old state names them.
 *
 * Where the package is not under node_modules (a symlinked checkout), the serializer copies these
 * functions by value instead; they stay correct then too, because they reach the implementation
 * by package name, at call time, from the program's directory.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { ResourceKind } from "../../core/kinds";

export type { ResourceKind };

export function shim(kind: ResourceKind): pulumi.dynamic.ResourceProvider {
  // Pulumi's serializer never captures `require`; in the provider process it resolves from the
  // program's directory, where `npm install pulumi-semgrep` put the package.
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- required by name at call time (see above)
  const run = (method: string, args: unknown[]) => require("pulumi-semgrep/dynamic").run(kind, method, args);
  return {
    configure: (req) => run("configure", [req]),
    check: (olds, news) => run("check", [olds, news]),
    diff: (id, olds, news) => run("diff", [id, olds, news]),
    create: (inputs) => run("create", [inputs]),
    read: (id, props) => run("read", [id, props]),
    update: (id, olds, news) => run("update", [id, olds, news]),
    delete: (id, props) => run("delete", [id, props]),
  };
}

/** The module of the type tokens: `pulumi-nodejs:dynamic/semgrep:<Name>`. */
export const TYPE_MODULE = "semgrep";
