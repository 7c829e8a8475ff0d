package config

// ResolvePaths exposes resolvePaths to the fuzz target.
func ResolvePaths(c *Config, dir string) { c.resolvePaths(dir) }
