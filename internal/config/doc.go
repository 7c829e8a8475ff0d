// Package config is Clarify's configuration: where data lives and which
// sources are served. One precedence everywhere: command-line flags, then
// environment variables, then the config file, then defaults.
//
// The command line loads the file once (Load) before anything opens a
// source or the store; the registry, the store and the server then read
// the Config as given. One rule holds for paths: a relative path in the
// file is relative to the file's directory, and Load leaves none relative;
// a path from a flag or a variable is relative to the working directory.
package config
