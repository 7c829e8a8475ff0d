package cli

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/clarify-sql/clarify/internal/guard"
	"github.com/clarify-sql/clarify/internal/registry"
	"github.com/clarify-sql/clarify/internal/source"
)

// doctorReport is one source's result of `clarify doctor --json`.
type doctorReport struct {
	Source   string           `json:"source"`
	Dialect  string           `json:"dialect,omitempty"`
	Error    string           `json:"error,omitempty"`
	Findings []source.Finding `json:"findings"`
}

// doctor checks each configured source (or one) for what its database
// account may do beyond reading, and its model's SQL fragments against the
// guard. It exits 1 when anything needs attention.
func (e *env) doctor(ctx context.Context, args []string) error {
	fs := newFlagSet("doctor", e)
	var c common
	c.register(fs)
	name := fs.String("source", "", "check only this source")
	asJSON := fs.Bool("json", false, "print one JSON document per source")
	if _, err := parse(fs, args); err != nil {
		return usagef("%v", err)
	}
	cfg, dir, err := c.load()
	if err != nil {
		return err
	}
	reg := registry.New(cfg, dir, e.registryOptions())
	defer reg.Close()
	names := reg.Names()
	if *name != "" {
		names = []string{*name}
	}
	problems := 0
	for _, n := range names {
		r := doctorReport{Source: n, Findings: []source.Finding{}}
		eng, info, err := reg.Engine(ctx, n)
		if err != nil {
			r.Error = message(err)
			problems++
		} else {
			r.Dialect = info.Dialect
			found, err := eng.Source().CheckPrivileges(ctx)
			if err != nil {
				r.Error = message(err)
				problems++
			}
			r.Findings = append(r.Findings, found...)
			if err := guard.CheckModel(eng.Source().Model); err != nil {
				r.Findings = append(r.Findings, source.Finding{Warn: true, Message: err.Error()})
			} else {
				r.Findings = append(r.Findings, source.Finding{Message: "the model's SQL fragments pass the guard"})
			}
		}
		for _, f := range r.Findings {
			if f.Warn {
				problems++
			}
		}
		if *asJSON {
			enc := json.NewEncoder(e.stdout)
			enc.SetEscapeHTML(false)
			if err := enc.Encode(r); err != nil {
				return err
			}
			continue
		}
		e.printDoctor(r)
	}
	if problems > 0 {
		return &failure{fmt.Sprintf("doctor found %d problem(s)", problems)}
	}
	return nil
}

func (e *env) printDoctor(r doctorReport) {
	fmt.Fprintf(e.stdout, "%s (%s)\n", r.Source, r.Dialect)
	if r.Error != "" {
		fmt.Fprintln(e.stdout, "  ERROR: "+r.Error)
	}
	for _, f := range r.Findings {
		if f.Warn {
			fmt.Fprintln(e.stdout, "  WARNING: "+f.Message)
		} else {
			fmt.Fprintln(e.stdout, "  ok: "+f.Message)
		}
	}
}
