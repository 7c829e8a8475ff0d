package cli

import (
	"context"
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
)

// version prints what this binary is: its module version (or commit, when
// built from a checkout), whether the checkout had uncommitted changes,
// and the Go version and platform it was built for. All of it comes from
// the build information the Go toolchain embeds; no linker flags needed.
func (e *env) version(_ context.Context, args []string) error {
	fs := newFlagSet("version", e)
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("version takes no arguments, got %q", pos[0])
	}
	bi, _ := debug.ReadBuildInfo()
	fmt.Fprintln(e.stdout, versionLine(bi))
	return nil
}

// versionLine renders build information (nil when the binary has none)
// as one line: "clarify VERSION [commit REV[, modified] TIME] GO OS/ARCH".
func versionLine(bi *debug.BuildInfo) string {
	v, goVersion := "unknown", runtime.Version()
	var rev, when string
	modified := false
	if bi != nil {
		goVersion = bi.GoVersion
		if bi.Main.Version != "" {
			v = bi.Main.Version
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.time":
				when = s.Value
			case "vcs.modified":
				modified = s.Value == "true"
			}
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "clarify %s", v)
	if rev == "" && v == "(devel)" {
		b.WriteString(" (built without version control information)")
	}
	if rev != "" {
		fmt.Fprintf(&b, " (commit %.12s", rev)
		if modified {
			b.WriteString(" with uncommitted changes")
		}
		if when != "" {
			b.WriteString(", " + when)
		}
		b.WriteString(")")
	}
	fmt.Fprintf(&b, " %s %s/%s", goVersion, runtime.GOOS, runtime.GOARCH)
	return b.String()
}
