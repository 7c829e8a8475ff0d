package cli_test

import (
	"bytes"
	"context"
	"flag"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/clarify-sql/clarify/internal/cli"
)

// commonFlags are the flags every source-reading command takes, which the
// top-level usage mentions once instead of in each synopsis.
var commonFlags = map[string]bool{"data-dir": true, "config": true}

// TestHelpEveryCommand runs every command with -h and --help: each exits
// 0, prints its help on standard output and nothing on standard error, and
// the help lists every flag the command defines; the command's synopsis in
// the top-level usage names each of its own flags too.
func TestHelpEveryCommand(t *testing.T) {
	t.Parallel()
	leaves, _ := cli.CommandPaths()
	for _, path := range leaves {
		for _, h := range []string{"--help", "-h"} {
			t.Run(path+" "+h, func(t *testing.T) {
				t.Parallel()
				var out, errb bytes.Buffer
				args := append(strings.Fields(path), h)
				code, seen := cli.RunSeeingFlags(context.Background(), args, &out, &errb)
				if code != 0 {
					t.Fatalf("exit %d, want 0; stderr:\n%s", code, errb.String())
				}
				if errb.Len() > 0 {
					t.Errorf("stderr is not empty:\n%s", errb.String())
				}
				if strings.Contains(out.String()+errb.String(), "help requested") {
					t.Errorf("output says help requested:\n%s", out.String())
				}
				if len(seen) != 1 {
					t.Fatalf("%d flag sets parsed, want 1", len(seen))
				}
				syn := cli.Synopsis(path)
				if syn == "" {
					t.Fatalf("the usage text has no synopsis for %q", path)
				}
				if !strings.Contains(out.String(), syn) {
					t.Errorf("help lacks the synopsis %q:\n%s", syn, out.String())
				}
				seen[0].VisitAll(func(f *flag.Flag) {
					if !strings.Contains(out.String(), "  --"+f.Name+" ") && !strings.Contains(out.String(), "  --"+f.Name+"\n") {
						t.Errorf("help lacks --%s:\n%s", f.Name, out.String())
					}
					if !commonFlags[f.Name] && !strings.Contains(syn, "-"+f.Name+" ") && !strings.Contains(syn, "-"+f.Name+"]") {
						t.Errorf("the usage synopsis of %s lacks --%s:\n%s", path, f.Name, syn)
					}
				})
			})
		}
	}
}

// TestHelpGroupsAndTop: help for the whole command and for each group of
// subcommands, in every spelling, exits 0 and lists what it contains.
func TestHelpGroupsAndTop(t *testing.T) {
	t.Parallel()
	leaves, groups := cli.CommandPaths()
	cases := [][]string{{"help"}, {"-h"}, {"--help"}, {"help", "model", "init"}}
	for _, g := range groups {
		for _, h := range []string{"help", "-h", "--help"} {
			cases = append(cases, append(strings.Fields(g), h), []string{"help", g})
		}
	}
	for _, args := range cases {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			t.Parallel()
			code, out, errs := run(t, "", args...)
			if code != 0 || errs != "" {
				t.Fatalf("exit %d, stderr %q; want 0 and nothing", code, errs)
			}
			var want []string
			if args[0] != "help" || len(args) == 1 {
				// a group lists its subcommands, the top level every command
				for _, l := range leaves {
					if strings.HasPrefix(l+" ", strings.Join(args[:len(args)-1], " ")+" ") || len(args) == 1 {
						want = append(want, "clarify "+l)
					}
				}
			}
			for _, w := range want {
				if !strings.Contains(out, w) {
					t.Errorf("help lacks %q:\n%s", w, out)
				}
			}
			if out == "" {
				t.Error("no help printed")
			}
		})
	}
}

// TestUnknownCommand: an unknown or missing (sub)command exits 2 with the
// usage on standard error and nothing on standard output.
func TestUnknownCommand(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args []string
		msg  string
		// usage is a line of the usage printed under the message.
		usage string
	}{
		{nil, "", "clarify serve"},
		{[]string{"nope"}, `unknown command "nope"`, "clarify serve"},
		{[]string{"model"}, "model needs a subcommand", "clarify model init"},
		{[]string{"model", "nope"}, `unknown model subcommand "nope"`, "clarify model review"},
		{[]string{"key"}, "key needs a subcommand", "clarify key new --user NAME"},
		{[]string{"llm", "probe"}, `unknown llm subcommand "probe"`, "clarify llm check"},
		{[]string{"bench", "nope"}, `unknown bench subcommand "nope"`, "clarify bench flood"},
		{[]string{"ask", "--nope", "q"}, "flag provided but not defined: -nope", "--no-ask"},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			t.Parallel()
			code, out, errs := run(t, "", tc.args...)
			if code != 2 {
				t.Errorf("exit %d, want 2", code)
			}
			if out != "" {
				t.Errorf("stdout %q, want nothing", out)
			}
			if !strings.Contains(errs, tc.msg) || !strings.Contains(errs, tc.usage) {
				t.Errorf("stderr lacks %q or %q:\n%s", tc.msg, tc.usage, errs)
			}
		})
	}
}

func TestVersionCommand(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{"version"}, {"--version"}} {
		code, out, errs := run(t, "", args...)
		if code != 0 || errs != "" {
			t.Fatalf("%v: exit %d, stderr %q", args, code, errs)
		}
		if !strings.HasPrefix(out, "clarify ") || !strings.Contains(out, runtime.Version()) {
			t.Errorf("%v: %q does not name clarify and %s", args, out, runtime.Version())
		}
	}
}

func TestVersionLine(t *testing.T) {
	t.Parallel()
	platform := runtime.GOOS + "/" + runtime.GOARCH
	tests := []struct {
		name string
		bi   *debug.BuildInfo
		want string
	}{
		{"no build information", nil, "clarify unknown " + runtime.Version() + " " + platform},
		{"a tagged module", &debug.BuildInfo{GoVersion: "go1.26.1", Main: debug.Module{Version: "v1.2.3"}},
			"clarify v1.2.3 go1.26.1 " + platform},
		{"a clean checkout", &debug.BuildInfo{GoVersion: "go1.26.1", Main: debug.Module{Version: "v0.0.0-20260101120000-0123456789ab"},
			Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "0123456789abcdef0123"}, {Key: "vcs.time", Value: "2026-01-01T12:00:00Z"}, {Key: "vcs.modified", Value: "false"}}},
			"clarify v0.0.0-20260101120000-0123456789ab (commit 0123456789ab, 2026-01-01T12:00:00Z) go1.26.1 " + platform},
		{"a dirty checkout", &debug.BuildInfo{GoVersion: "go1.26.1", Main: debug.Module{Version: "(devel)"},
			Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "0123456789abcdef0123"}, {Key: "vcs.modified", Value: "true"}}},
			"clarify (devel) (commit 0123456789ab with uncommitted changes) go1.26.1 " + platform},
		{"built without VCS stamping", &debug.BuildInfo{GoVersion: "go1.26.1", Main: debug.Module{Version: "(devel)"}},
			"clarify (devel) (built without version control information) go1.26.1 " + platform},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := cli.VersionLine(tc.bi); got != tc.want {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
		})
	}
}

// TestConflictingFlags: flags that cannot go together are a usage error
// naming both, before anything is opened.
func TestConflictingFlags(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		args []string
		msg  string
	}{
		{"ask --source with --db", []string{"ask", "--source", "clinic", "--db", "sqlite:/nonexistent.db", "q"}, "--source and --db cannot go together"},
		{"ask --config with --db", []string{"ask", "--config", "/nonexistent.yaml", "--db", "sqlite:/nonexistent.db", "q"}, "--config and --db cannot go together"},
		{"ask --data-dir with --db", []string{"ask", "--data-dir", "/nonexistent", "--db", "sqlite:/nonexistent.db", "q"}, "--data-dir and --db cannot go together"},
		{"ask --user with --db", []string{"ask", "--user", "ana", "--db", "sqlite:/nonexistent.db", "q"}, "--db and --user cannot go together"},
		{"ask --json with --explain", []string{"ask", "--json", "--explain", "--data-dir", "/nonexistent", "q"}, "--json and --explain cannot go together"},
		{"guard --source with --db", []string{"guard", "--source", "clinic", "--db", "sqlite:/nonexistent.db", "SELECT 1"}, "--source and --db cannot go together"},
		{"demo --dir with --data-dir", []string{"demo", "--dir", "/nonexistent/a", "--data-dir", "/nonexistent/b"}, "--dir and --data-dir cannot go together"},
		{"model init --force without --out", []string{"model", "init", "--db", "sqlite:/nonexistent.db", "--force"}, "--force goes with --out"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			code, out, errs := run(t, "", tc.args...)
			if code != 2 || !strings.Contains(errs, tc.msg) {
				t.Errorf("exit %d, stderr %q; want 2 and %q", code, errs, tc.msg)
			}
			if out != "" {
				t.Errorf("stdout %q, want nothing", out)
			}
		})
	}
}
