//go:build dotnet

package main

import (
	"bytes"
	"io"
	"net/http"
	"os"

	"github.com/pulumi/pulumi/pkg/v3/codegen/dotnet"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

// The .NET generator, from pkg/v3 v3.206.0 (later releases moved it out of pkg/v3).
var generators = map[string]generator{
	"dotnet": func(pkg *schema.Package, _ schema.ReferenceLoader) (map[string][]byte, error) {
		offlineLogo()
		return dotnet.GeneratePackage(tool, pkg, nil, nil)
	},
}

// offlineLogo answers the generator's download of the NuGet package icon (the schema's logoUrl, or
// Pulumi's logo on GitHub) with the file named by SDKGEN_LOGO: generation must not need the
// network, and the icon should be ours.
func offlineLogo() {
	logo, err := os.ReadFile(os.Getenv("SDKGEN_LOGO"))
	if err != nil {
		fail("SDKGEN_LOGO must name the PNG the .NET package shows: " + err.Error())
	}
	http.DefaultTransport = roundTripper(func(*http.Request) (*http.Response, error) {
		return &http.Response{StatusCode: http.StatusOK, Body: io.NopCloser(bytes.NewReader(logo)), Header: http.Header{}}, nil
	})
}

type roundTripper func(*http.Request) (*http.Response, error)

func (f roundTripper) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
