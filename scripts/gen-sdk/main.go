// Command gen-sdk writes the Python, Go and Node.js (TypeScript) SDKs of a Pulumi package schema
// with Pulumi's own code generators (github.com/pulumi/pulumi/pkg/v3/codegen/python, .../codegen/go
// and .../codegen/nodejs), in process, without the language hosts that `pulumi package gen-sdk`
// would start.
//
//	gen-sdk <schema.json> <out> [<python-extras>]
//
// writes <out>/python, <out>/go and <out>/nodejs, each removed first (as `pulumi package gen-sdk` does).
// The `.py` files of folder <python-extras> are added to the Python package (the generator's
// extraFiles: each one written beside the generated modules and imported by the package's
// __init__.py). The
// schema is bound and validated with schema.BindSpec, as the language hosts bind it; it may
// reference no other package (no loader is given one to load). scripts/ensure-gen-sdk builds
// this program against the Pulumi version pinned in package.json; `npm run gen-sdk` runs it.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/blang/semver"
	gogen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	nodegen "github.com/pulumi/pulumi/pkg/v3/codegen/nodejs"
	pygen "github.com/pulumi/pulumi/pkg/v3/codegen/python"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
	"golang.org/x/mod/modfile"
	modsemver "golang.org/x/mod/semver"
)

// The name the generated files' headers give as their generator.
const tool = "pulumi-notify gen-sdk"

// The oldest github.com/pulumi/pulumi/sdk/v3 the generated Go SDK compiles with, which its go.mod
// requires. The Go generator of v3.276.0 writes v3.269.0, but the `<Resource>Exists` functions it
// generates pass a StringInput to ctx.ExistsResource, which takes one from v3.274.0 (an IDInput
// before). The go.mod's requirement is raised to this, never lowered;
// test/e2e/oldestPulumi.test.ts builds the suite's Go program with it.
const goSDKFloor = "v3.274.0"

// raiseRequirement makes the go.mod `mod` require at least `version` of module `path`.
func raiseRequirement(mod []byte, path, version string) ([]byte, error) {
	f, err := modfile.Parse("go.mod", mod, nil)
	if err != nil {
		return nil, err
	}
	for _, r := range f.Require {
		if r.Mod.Path == path && modsemver.Compare(r.Mod.Version, version) >= 0 {
			return mod, nil
		}
	}
	if err := f.AddRequire(path, version); err != nil {
		return nil, err
	}
	return f.Format()
}

// noLoader refuses to load packages: the notify schema references none but its own.
type noLoader struct{}

var _ schema.ReferenceLoader = noLoader{}

func refuse(name string) error {
	return fmt.Errorf("the schema references package %q; gen-sdk loads no other packages", name)
}

func (noLoader) LoadPackage(pkg string, _ *semver.Version) (*schema.Package, error) {
	return nil, refuse(pkg)
}

func (noLoader) LoadPackageV2(_ context.Context, d *schema.PackageDescriptor) (*schema.Package, error) {
	return nil, refuse(d.Name)
}

func (noLoader) LoadPackageReference(pkg string, _ *semver.Version) (schema.PackageReference, error) {
	return nil, refuse(pkg)
}

func (noLoader) LoadPackageReferenceV2(
	_ context.Context, d *schema.PackageDescriptor,
) (schema.PackageReference, error) {
	return nil, refuse(d.Name)
}

// bind reads and binds the schema. Each generator imports its language section into the
// package it is given, so each gets a package of its own.
func bind(file string) (*schema.Package, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	var spec schema.PackageSpec
	if err := json.Unmarshal(data, &spec); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	pkg, diags, err := schema.BindSpec(spec, noLoader{}, schema.ValidationOptions{})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	if diags.HasErrors() {
		return nil, fmt.Errorf("%s does not bind: %w", file, diags)
	}
	for _, d := range diags {
		fmt.Fprintf(os.Stderr, "gen-sdk: %s: %s\n", file, d.Error())
	}
	return pkg, nil
}

// write replaces dir with the generated files.
func write(dir string, files map[string][]byte) error {
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		out := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(out, files[name], 0o644); err != nil {
			return err
		}
	}
	return nil
}

// pythonExtras reads the `.py` files of dir (none when dir is empty), by name.
func pythonExtras(dir string) (map[string][]byte, error) {
	if dir == "" {
		return nil, nil
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	extras := map[string][]byte{}
	for _, e := range entries {
		if e.IsDir() || filepath.Ext(e.Name()) != ".py" {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		extras[e.Name()] = data
	}
	return extras, nil
}

func run(schemaFile, out, extrasDir string) error {
	extras, err := pythonExtras(extrasDir)
	if err != nil {
		return fmt.Errorf("python extras: %w", err)
	}
	generators := []struct {
		lang string
		gen  func(*schema.Package) (map[string][]byte, error)
	}{
		{"python", func(p *schema.Package) (map[string][]byte, error) {
			return pygen.GeneratePackage(tool, p, extras, noLoader{})
		}},
		{"go", func(p *schema.Package) (map[string][]byte, error) {
			return gogen.GeneratePackage(tool, p, nil)
		}},
		// A package to publish (localSDK false): sources, package.json and tsconfig.json, compiled
		// to JavaScript by whoever builds it (this repo: `npm run build`), not on install.
		{"nodejs", func(p *schema.Package) (map[string][]byte, error) {
			return nodegen.GeneratePackage(tool, p, nil, nil, false, noLoader{})
		}},
	}
	for _, g := range generators {
		pkg, err := bind(schemaFile)
		if err != nil {
			return err
		}
		files, err := g.gen(pkg)
		if err != nil {
			return fmt.Errorf("%s SDK: %w", g.lang, err)
		}
		if g.lang == "go" {
			if files["go.mod"], err = raiseRequirement(files["go.mod"], "github.com/pulumi/pulumi/sdk/v3", goSDKFloor); err != nil {
				return fmt.Errorf("go SDK: go.mod: %w", err)
			}
		}
		dir := filepath.Join(out, g.lang)
		if err := write(dir, files); err != nil {
			return fmt.Errorf("%s SDK: %w", g.lang, err)
		}
		fmt.Fprintf(os.Stderr, "gen-sdk: wrote %d files to %s\n", len(files), dir)
	}
	return nil
}

func main() {
	if len(os.Args) != 3 && len(os.Args) != 4 {
		fmt.Fprintln(os.Stderr, "usage: gen-sdk <schema.json> <out> [<python-extras>]  (writes <out>/python, <out>/go and <out>/nodejs)")
		os.Exit(2)
	}
	extras := ""
	if len(os.Args) == 4 {
		extras = os.Args[3]
	}
	if err := run(os.Args[1], os.Args[2], extras); err != nil {
		fmt.Fprintf(os.Stderr, "gen-sdk: %v\n", err)
		os.Exit(1)
	}
}
