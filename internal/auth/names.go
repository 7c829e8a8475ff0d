package auth

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxName bounds user ids and group names from any source.
const maxName = 256

// validName accepts a user id or group name: non-empty, valid UTF-8,
// printable, without leading or trailing space, at most maxName bytes.
func validName(s string) error {
	switch {
	case s == "":
		return errors.New("empty")
	case len(s) > maxName:
		return fmt.Errorf("longer than %d bytes", maxName)
	case !utf8.ValidString(s):
		return errors.New("not valid UTF-8")
	case strings.TrimSpace(s) != s:
		return errors.New("leading or trailing space")
	}
	for _, r := range s {
		if !unicode.IsPrint(r) {
			return fmt.Errorf("unprintable character %U", r)
		}
	}
	return nil
}

// hasGroup reports whether group is non-empty and among groups.
func hasGroup(groups []string, group string) bool {
	if group == "" {
		return false
	}
	for _, g := range groups {
		if g == group {
			return true
		}
	}
	return false
}
