package cli

import (
	"net/url"
	"os"
)

func getenv(k string) string { return os.Getenv(k) }

// parseURL returns a URL with its password removed, or "" when s is not a URL.
func parseURL(s string) (string, error) {
	u, err := url.Parse(s)
	if err != nil || u.Scheme == "" || u.Host == "" {
		return "", err
	}
	return u.Redacted(), nil
}
