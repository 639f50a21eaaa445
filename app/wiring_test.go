package app

import (
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// wiringOrder is the order package app's files read in, from Run down:
// each may use what the files after it define, never what one before it
// does, so the wiring reads top-down with no arrow back up.
var wiringOrder = []string{
	"run.go",             // Run: open the core, start the servers, serve, close in order
	"keeper.go",          // applying the person's settings while the app runs (the bridge's, the login entry, retention)
	"endpoint.go",        // the MCP listener: start, move, token, stop
	"login.go",           // what start at login runs
	"shutdownwatch.go",   // a quit that hangs: log every stack, shut down without the UI
	"app.go",             // Options, Env and the helpers below them
	"display_x11.go",     // whether the desktop UI is built for X11 (the default) ...
	"display_wayland.go", // ... or for Wayland itself (the wayland build tag)
}

type noImports struct{}

func (noImports) Import(string) (*types.Package, error) { return nil, errors.New("not needed") }

// TestWiringReadsTopDown type-checks package app's own files (imports are
// left unresolved: only the package's own names matter) and fails for
// every use of a name defined in a file earlier in wiringOrder, and for a
// file missing from it.
func TestWiringReadsTopDown(t *testing.T) {
	t.Parallel()
	fset := token.NewFileSet()
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var files []*ast.File
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		if !slices.Contains(wiringOrder, name) {
			t.Errorf("%s: not in wiringOrder; give it its place", name)
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	info := &types.Info{Uses: map[*ast.Ident]types.Object{}}
	pkg, _ := (&types.Config{Importer: noImports{}, Error: func(error) {}}).Check("app", fset, files, info)
	uses := 0
	for id, o := range info.Uses {
		if o.Pkg() != pkg || !o.Pos().IsValid() || !packageLevel(pkg, o) {
			continue
		}
		from, to := filepath.Base(fset.Position(id.Pos()).Filename), filepath.Base(fset.Position(o.Pos()).Filename)
		if from == to {
			continue
		}
		uses++
		if slices.Index(wiringOrder, to) < slices.Index(wiringOrder, from) {
			t.Errorf("%s uses %s, defined above it in %s", fset.Position(id.Pos()), o.Name(), to)
		}
	}
	if uses == 0 {
		t.Fatal("found no use across files; the check sees nothing")
	}
}

// packageLevel reports whether o is one of pkg's own names: package-level,
// or a method or field of one of its types.
func packageLevel(pkg *types.Package, o types.Object) bool {
	if o.Parent() == pkg.Scope() {
		return true
	}
	switch o := o.(type) {
	case *types.Func:
		return o.Type().(*types.Signature).Recv() != nil
	case *types.Var:
		return o.IsField()
	}
	return false
}
