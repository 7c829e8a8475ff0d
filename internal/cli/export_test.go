package cli

import (
	"context"
	"flag"
	"io"
	"strings"
)

// RateLimit exposes rateLimit to tests.
var RateLimit = rateLimit

// VersionLine exposes versionLine to tests.
var VersionLine = versionLine

// SQLiteFileFinding exposes sqliteFileFinding to tests.
var SQLiteFileFinding = sqliteFileFinding

// Usage is the top-level usage text.
const Usage = usage

// Synopsis exposes synopsis to tests.
var Synopsis = synopsis

// CommandPaths lists every runnable command ("model init") and every
// group of commands ("model"), from the table Run dispatches through.
func CommandPaths() (leaves, groups []string) {
	var walk func(prefix string, cs []command)
	walk = func(prefix string, cs []command) {
		for _, c := range cs {
			p := strings.TrimSpace(prefix + " " + c.name)
			if c.subs != nil {
				groups = append(groups, p)
				walk(p, c.subs)
				continue
			}
			leaves = append(leaves, p)
		}
	}
	walk("", commands())
	return leaves, groups
}

// RunSeeingFlags runs like Run and also returns the flag sets the command
// parsed.
func RunSeeingFlags(ctx context.Context, args []string, stdout, stderr io.Writer) (int, []*flag.FlagSet) {
	var seen []*flag.FlagSet
	e := &env{stdin: strings.NewReader(""), stdout: stdout, stderr: stderr, sawFlags: func(fs *flag.FlagSet) { seen = append(seen, fs) }}
	return e.run(ctx, args), seen
}
