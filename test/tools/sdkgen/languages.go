//go:build !dotnet

package main

import (
	gogen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	"github.com/pulumi/pulumi/pkg/v3/codegen/nodejs"
	"github.com/pulumi/pulumi/pkg/v3/codegen/python"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

// The generators of the pkg/v3 release the CLI is built from.
var generators = map[string]generator{
	"nodejs": func(pkg *schema.Package, loader schema.ReferenceLoader) (map[string][]byte, error) {
		return nodejs.GeneratePackage(tool, pkg, nil, nil, false, loader)
	},
	"python": func(pkg *schema.Package, loader schema.ReferenceLoader) (map[string][]byte, error) {
		return python.GeneratePackage(tool, pkg, nil, loader)
	},
	"go": func(pkg *schema.Package, _ schema.ReferenceLoader) (map[string][]byte, error) {
		return gogen.GeneratePackage(tool, pkg, nil)
	},
}
