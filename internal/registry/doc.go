// Package registry opens the sources one Clarify serves — the demo
// databases (generated into the data directory on first use, with their
// embedded models), sources from a config file, or one DSN with a model —
// into engines, each checked against its database before use.
//
// A registry takes the Config as loaded (its paths already absolute, see
// package config) and opens each source on first use; Close closes them.
package registry
