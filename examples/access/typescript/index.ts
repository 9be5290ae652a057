// Who sees which projects, and the deployment's safety switches, reviewed like any other change:
// an AppSec team that manages every project, a payments team that sees only the PCI projects,
// product settings that keep developers from ignoring secrets findings and block pull requests on
// supply-chain findings, and a webhook to the SOC for critical findings. Teams are beta in
// Semgrep's API; product settings and notification rules are experimental. Notification rules
// name remediation policies (unified policies): against the emulator, start it with
// `--policies-v2` (`npx pulumi-semgrep-emulator --preset demo --policies-v2`).
import * as pulumi from "@pulumi/pulumi";
import { DeploymentSettings, getProjectsOutput, getUsersOutput, NotificationRule, RemediationPolicy, Team } from "pulumi-semgrep";

const config = new pulumi.Config();
const deploymentId = config.get("deploymentId") ?? "1";
const deploymentSlug = config.get("deploymentSlug") ?? "acme";

// A team's members are user ids: find them by email (getUsers lists the deployment's users).
const users = getUsersOutput({ deploymentId });
const userId = (email: string) =>
  users.users.apply((all) => {
    const user = all.find((u) => u.email === email);
    if (!user) throw new Error(`no user ${email} in deployment ${deploymentId}`);
    return user.id;
  });
const roles = (members: Record<string, "TEAM_ROLE_MANAGER" | "TEAM_ROLE_MEMBER" | "TEAM_ROLE_READONLY">) =>
  pulumi.all(Object.entries(members).map(([email, role]) => pulumi.all([userId(email), role]))).apply((pairs) => Object.fromEntries(pairs));

// AppSec manages every project of the deployment (the list is read at each run: a new project joins).
const appsec = new Team("appsec", {
  deploymentId,
  name: "appsec",
  members: roles({
    "alice@acme.example": "TEAM_ROLE_MANAGER",
    "bob@acme.example": "TEAM_ROLE_MANAGER",
    "erin@acme.example": "TEAM_ROLE_READONLY",
  }),
  projects: getProjectsOutput({ deploymentSlug }).names,
});

// The payments team sees only the projects tagged pci: no one else is added in the web UI unseen.
const payments = new Team("payments", {
  deploymentId,
  name: "payments",
  members: roles({ "carol@acme.example": "TEAM_ROLE_MANAGER", "dan@acme.example": "TEAM_ROLE_MEMBER" }),
  projects: getProjectsOutput({ deploymentSlug, select: { tags: ["pci"] } }).names,
});

// Product settings: developers may not ignore secrets findings (AppSec triages them); supply chain
// findings block pull requests and the malware firewall stays on; no code goes to OpenAI.
new DeploymentSettings("products", {
  deploymentId,
  secrets: { enabled: true, triagePermission: "TRIAGE_PERMISSION_NONE" },
  sca: { enabled: true, blockPrEnabled: true, malwareFirewallEnabled: true },
  ai: { legacyAllowOpenaiCodeSharing: false },
});

// Critical findings go to the SOC's webhook. The URL is a secret (`pulumi config set --secret
// socWebhookUrl https://…`): stored encrypted, printed nowhere.
const critical = new RemediationPolicy("critical", {
  deploymentId,
  slug: "critical-findings",
  policyName: "Critical findings",
  description: "Every critical finding, whatever its product: the SOC is told.",
  active: true,
  filters: { mode: "all", conditions: [{ type: "severity", values: ["critical"] }] },
  actions: [{ type: "pr_comment" }],
});
new NotificationRule("critical-to-soc", {
  deploymentId,
  name: "Critical findings to the SOC pager",
  channel: "CHANNEL_WEBHOOK",
  config: { url: config.getSecret("socWebhookUrl") ?? pulumi.secret("https://soc.acme.example/hooks/semgrep") },
  policySlugs: [critical.slug],
  enabled: true,
  sendScanCompletion: false,
});

export const teams = { appsec: appsec.slug, payments: payments.slug };
