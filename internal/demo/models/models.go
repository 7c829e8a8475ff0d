// Package models embeds the hand-written semantic models of the four demo
// sources (clinic, labs, trades, retail), read by the source registry when
// the demo databases are served.
package models

import (
	"embed"
	"fmt"
)

//go:embed *.yaml
var files embed.FS

// Get returns the YAML of a demo source's model.
func Get(name string) ([]byte, error) {
	b, err := files.ReadFile(name + ".yaml")
	if err != nil {
		return nil, fmt.Errorf("no demo model %q: %w", name, err)
	}
	return b, nil
}
