// Command gomodzip makes and checks Go module zips with golang.org/x/mod/zip, the package the go
// command's own module zips come from (scripts/release.ts calls it; scripts/ensure-gomodzip
// builds it).
//
//	gomodzip create -module PATH -version vX.Y.Z -dir DIR [-license FILE] -out FILE.zip
//	    zips the module in DIR: the files zip.CreateFromDir takes (zip.CheckDir lists them: no
//	    vendor/ packages, no nested modules, no VCS folders, no symbolic links), and FILE as its
//	    LICENSE when DIR has none, as the go command does for a module in a subdirectory of its
//	    repository (cmd/go/internal/modfetch/coderepo.go; zip.CreateFromVCS does the same). Prints
//	    the zip's file names, one a line.
//	gomodzip check -module PATH -version vX.Y.Z FILE.zip
//	    zip.CheckZip of FILE.zip: prints its valid, omitted and invalid files as JSON; exit 1 when
//	    the go command would refuse it.
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"

	"golang.org/x/mod/module"
	modzip "golang.org/x/mod/zip"
)

// file is a file of DIR (or the LICENSE from elsewhere) under its name in the zip.
type file struct {
	name, path string
	info       os.FileInfo
}

func (f file) Path() string                 { return f.name }
func (f file) Lstat() (os.FileInfo, error)  { return f.info, nil }
func (f file) Open() (io.ReadCloser, error) { return os.Open(f.path) }

func create(args []string) error {
	fs := flag.NewFlagSet("create", flag.ContinueOnError)
	modPath := fs.String("module", "", "module path")
	version := fs.String("version", "", "module version (vX.Y.Z)")
	dir := fs.String("dir", "", "the module's directory")
	license := fs.String("license", "", "the LICENSE file for a module without one (its repository's)")
	out := fs.String("out", "", "the zip to write")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *modPath == "" || *version == "" || *dir == "" || *out == "" || fs.NArg() != 0 {
		return errors.New("usage: gomodzip create -module PATH -version vX.Y.Z -dir DIR [-license FILE] -out FILE.zip")
	}
	root, err := filepath.Abs(*dir)
	if err != nil {
		return err
	}
	// The files CreateFromDir would zip, and why the others are left out.
	checked, err := modzip.CheckDir(root)
	if err != nil {
		return err
	}
	for _, o := range checked.Omitted {
		fmt.Fprintf(os.Stderr, "gomodzip: left out %s: %v\n", o.Path, o.Err)
	}
	var files []modzip.File
	haveLicense := false
	for _, p := range checked.Valid {
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		info, err := os.Lstat(p)
		if err != nil {
			return err
		}
		name := filepath.ToSlash(rel)
		haveLicense = haveLicense || name == "LICENSE"
		files = append(files, file{name: name, path: p, info: info})
	}
	if !haveLicense && *license != "" {
		info, err := os.Stat(*license)
		if err != nil {
			return err
		}
		files = append(files, file{name: "LICENSE", path: *license, info: info})
	}
	sort.Slice(files, func(i, j int) bool { return files[i].Path() < files[j].Path() })

	tmp := *out + ".tmp"
	w, err := os.Create(tmp)
	if err != nil {
		return err
	}
	err = modzip.Create(w, module.Version{Path: *modPath, Version: *version}, files)
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, *out); err != nil {
		return err
	}
	for _, f := range files {
		fmt.Println(f.Path())
	}
	return nil
}

func check(args []string) error {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	modPath := fs.String("module", "", "module path")
	version := fs.String("version", "", "module version (vX.Y.Z)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *modPath == "" || *version == "" || fs.NArg() != 1 {
		return errors.New("usage: gomodzip check -module PATH -version vX.Y.Z FILE.zip")
	}
	checked, err := modzip.CheckZip(module.Version{Path: *modPath, Version: *version}, fs.Arg(0))
	type fileError struct{ Path, Err string }
	errs := func(l []modzip.FileError) []fileError {
		out := []fileError{}
		for _, e := range l {
			out = append(out, fileError{e.Path, e.Err.Error()})
		}
		return out
	}
	valid := checked.Valid
	if valid == nil {
		valid = []string{}
	}
	report := struct {
		Valid     []string
		Omitted   []fileError
		Invalid   []fileError
		SizeError string `json:",omitempty"`
		Error     string `json:",omitempty"`
	}{Valid: valid, Omitted: errs(checked.Omitted), Invalid: errs(checked.Invalid)}
	if checked.SizeError != nil {
		report.SizeError = checked.SizeError.Error()
	}
	if err != nil {
		report.Error = err.Error()
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", "  ")
	if jerr := enc.Encode(report); jerr != nil {
		return jerr
	}
	if err != nil {
		return fmt.Errorf("%s is not a zip the go command takes: %w", fs.Arg(0), err)
	}
	return nil
}

func main() {
	var err error
	switch {
	case len(os.Args) > 1 && os.Args[1] == "create":
		err = create(os.Args[2:])
	case len(os.Args) > 1 && os.Args[1] == "check":
		err = check(os.Args[2:])
	default:
		err = errors.New("usage: gomodzip create|check ...")
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "gomodzip: %v\n", err)
		os.Exit(1)
	}
}
