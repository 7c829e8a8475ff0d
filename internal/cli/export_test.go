package cli

// RateLimit exposes rateLimit to tests.
var RateLimit = rateLimit
