package text

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// Normalize applies NFKC, case folding and quote unification.
func Normalize(s string) string {
	return strings.ToLower(NormalizeKeepCase(s))
}

// NormalizeKeepCase is Normalize without case folding: the question as
// its writer capitalized it.
func NormalizeKeepCase(s string) string {
	s = norm.NFKC.String(s)
	s = strings.Map(func(r rune) rune {
		switch r {
		case '\u2018', '\u2019', '\u02bc', '`', '\u00b4':
			return '\''
		case '\u201c', '\u201d', '\u00ab', '\u00bb':
			return '"'
		case '\u2013', '\u2014', '\u2212':
			return '-'
		case '\u00a0':
			return ' '
		case 'ё':
			return 'е'
		case 'Ё':
			return 'Е'
		}
		return r
	}, s)
	return s
}

// IsCyrillic reports whether the text has more Cyrillic than Latin letters.
func IsCyrillic(s string) bool {
	cyr, lat := 0, 0
	for _, r := range s {
		if unicode.Is(unicode.Cyrillic, r) {
			cyr++
		} else if unicode.IsLetter(r) {
			lat++
		}
	}
	return cyr > lat
}

// ReplaceWords replaces whole-word occurrences of phrase in normalized
// text s with with.
func ReplaceWords(s, phrase, with string) string {
	if phrase == "" {
		return s
	}
	var b strings.Builder
	for {
		i := strings.Index(s, phrase)
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		end := i + len(phrase)
		if (i > 0 && isWordByte(s[i-1])) || (end < len(s) && isWordByte(s[end])) {
			b.WriteString(s[:end])
			s = s[end:]
			continue
		}
		b.WriteString(s[:i])
		b.WriteString(with)
		s = s[end:]
	}
}

func isWordByte(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= '0' && b <= '9' || b == '_' || b >= 0x80
}
