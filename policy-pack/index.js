// The policy pack of pulumi-semgrep, for `--policy-pack node_modules/pulumi-semgrep/policy-pack`
// (CLIs whose Node.js language host runs a directory pack). Needs @pulumi/policy installed beside
// pulumi-semgrep (an optional peer dependency).
require("../dist/policy-pack/pack.js").servePolicyPack(__dirname);
