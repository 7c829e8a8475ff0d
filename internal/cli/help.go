package cli

import (
	"flag"
	"fmt"
	"strings"
)

// helpText is what -h, --help or help asked for: Run prints it to standard
// output and exits 0.
type helpText struct{ text string }

func (h *helpText) Error() string { return "help requested" }

// synopsis returns the lines of usage that describe the command name
// ("model init"): its line and the indented lines under it.
func synopsis(name string) string {
	var b strings.Builder
	in := false
	for line := range strings.Lines(usage) {
		switch {
		case strings.HasPrefix(line, "  clarify "+name+" "), line == "  clarify "+name+"\n":
			in = true
		case !strings.HasPrefix(line, "        "):
			in = false
		}
		if in {
			b.WriteString(line)
		}
	}
	return b.String()
}

// commandHelp is a command's help: its synopsis, then every flag of fs
// with its default.
func commandHelp(fs *flag.FlagSet) string {
	var b strings.Builder
	b.WriteString("Usage:\n")
	b.WriteString(synopsis(fs.Name()))
	b.WriteString("\nFlags:\n")
	fs.VisitAll(func(f *flag.Flag) {
		name, text := flag.UnquoteUsage(f)
		fmt.Fprintf(&b, "  --%s", f.Name)
		if name != "" {
			b.WriteString(" " + name)
		}
		b.WriteString("\n        " + strings.ReplaceAll(text, "\n", "\n        "))
		switch d := f.DefValue; {
		case d == "" || d == "false" || d == "0":
		case fmt.Sprintf("%T", f.Value) == "*flag.stringValue":
			fmt.Fprintf(&b, " (default %q)", d)
		default:
			fmt.Fprintf(&b, " (default %s)", d)
		}
		b.WriteString("\n")
	})
	return b.String()
}

// groupHelp is the help of a group of commands such as model: the
// synopses of its subcommands.
func groupHelp(group string, cmds []command) string {
	var b strings.Builder
	b.WriteString("Usage:\n")
	for _, c := range cmds {
		b.WriteString(synopsis(group + " " + c.name))
	}
	fmt.Fprintf(&b, "\nclarify %s SUBCOMMAND --help lists a subcommand's flags.\n", group)
	return b.String()
}

// conflict is two flags that cannot be given together, and why.
type conflict struct{ a, b, why string }

// checkConflicts returns a usage error naming the first pair of flags in
// cs that were both given on the command line.
func checkConflicts(fs *flag.FlagSet, cs ...conflict) error {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	for _, c := range cs {
		if set[c.a] && set[c.b] {
			return &usageError{msg: fmt.Sprintf("--%s and --%s cannot go together: %s", c.a, c.b, c.why), help: commandHelp(fs)}
		}
	}
	return nil
}
