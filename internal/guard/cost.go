package guard

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Bounded cost: a statement whose string functions can build a value far
// larger than their inputs is refused before any server sees it. Nested
// replace(…, 'a', 'aa') doubles a value at each level: 28 levels in 505
// bytes made MariaDB work for over an hour, deaf to KILL, and PostgreSQL
// return a 268-million-character string. Each call's growth factor is
// read from its constant arguments; an argument the guard cannot read is
// assumed to grow a value unknownGrowth times. Factors multiply along a
// nesting path, and a path over maxGrowth is refused.

const (
	// maxGrowth is how many times nested string functions may multiply
	// the size of a value.
	maxGrowth = 1024
	// unknownGrowth is the factor of a replacement the guard cannot read.
	unknownGrowth = 8
	// maxPad is the longest string a pad function may build.
	maxPad = 1 << 16
	// maxWidth is the widest field a printf format may ask for.
	maxWidth = 1000
)

// growth tracks the size factor of the string functions enclosing the
// expression being checked.
type growth struct {
	factor float64
}

// enter accounts for a call of name with the given arguments (a nil entry
// for an argument that is not one constant) and returns the function
// that restores the enclosing factor once the call's arguments are
// checked.
func (g *growth) enter(name string, args []*constant) (func(), error) {
	f, err := growthOf(strings.ToLower(name), args)
	if err != nil {
		return nil, err
	}
	prev := g.factor
	if prev == 0 {
		prev = 1
	}
	g.factor = prev * f
	if g.factor > maxGrowth {
		g.factor = prev
		return nil, reject("nested string functions could build a value more than %d times the size of their input (%s)", maxGrowth, strings.ToLower(name))
	}
	return func() { g.factor = prev }, nil
}

// growthOf is how many times a call can multiply the size of its input.
func growthOf(name string, args []*constant) (float64, error) {
	arg := func(i int) (string, bool) {
		if i < len(args) && args[i] != nil && args[i].known {
			return args[i].value, true
		}
		return "", false
	}
	switch name {
	case "replace":
		from, okFrom := arg(1)
		to, okTo := arg(2)
		switch {
		case okTo && utf8.RuneCountInString(to) == 0:
			return 1, nil // deletes
		case okFrom && okTo:
			return max(1, float64(utf8.RuneCountInString(to))/float64(max(1, utf8.RuneCountInString(from)))), nil
		}
		return unknownGrowth, nil
	case "regexp_replace":
		// a pattern may match the empty string between any two
		// characters: each position can gain the replacement
		if rep, ok := arg(2); ok {
			return float64(utf8.RuneCountInString(rep) + 1), nil
		}
		return unknownGrowth, nil
	case "lpad", "rpad":
		n, ok := arg(1)
		v, err := strconv.ParseFloat(strings.TrimSpace(n), 64)
		if !ok || err != nil {
			return 0, reject("%s needs a constant length", name)
		}
		if v > maxPad {
			return 0, reject("%s may build at most %d characters", name, maxPad)
		}
		return 1, nil
	case "printf", "format":
		return 1, printfWidths(name, args)
	}
	return 1, nil
}

// printfWidths refuses a SQLite printf/format whose format is not a
// constant, takes its width from an argument ('*'), or asks for a field
// wider than maxWidth. MySQL's FORMAT(number, decimals) caps its
// decimals itself and has a number first, which passes.
func printfWidths(name string, args []*constant) error {
	if len(args) == 0 || args[0] == nil || !args[0].known {
		return reject("%s needs a constant format", name)
	}
	f := args[0].value
	if _, err := strconv.ParseFloat(strings.TrimSpace(f), 64); err == nil {
		return nil // MySQL's FORMAT(number, decimals)
	}
	for i := 0; i < len(f); i++ {
		if f[i] != '%' {
			continue
		}
		j := i + 1
		n := 0
		for ; j < len(f) && strings.IndexByte("0123456789.*-+ #,!l", f[j]) >= 0; j++ {
			switch {
			case f[j] == '*':
				return reject("%s may not take a field width from an argument", name)
			case f[j] >= '0' && f[j] <= '9':
				n = n*10 + int(f[j]-'0')
				if n > maxWidth {
					return reject("%s may not ask for a field wider than %d", name, maxWidth)
				}
			default:
				n = 0
			}
		}
		i = j
	}
	return nil
}

// oneConstant is the single constant an argument is, or nil.
func oneConstant(cs []constant) *constant {
	if len(cs) != 1 {
		return nil
	}
	return &cs[0]
}
