module semgrep-go

go 1.25.11

require (
	github.com/pulumi-semgrep/pulumi-semgrep/sdk/go/semgrep v0.1.0
	github.com/pulumi/pulumi/sdk/v3 v3.259.0
)
