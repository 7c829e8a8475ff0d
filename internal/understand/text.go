package understand

import (
	"strconv"
	"strings"
	"unicode"

	"github.com/kljensen/snowball/english"
	"github.com/kljensen/snowball/russian"
	"golang.org/x/text/unicode/norm"
)

// TokenKind classifies a token.
type TokenKind uint8

// Token kinds.
const (
	Word TokenKind = iota
	Number
	Op // a comparison operator such as >=
)

// Token is one word, number or operator of a question.
type Token struct {
	Text string // as normalized (lower case)
	Stem string // stem for matching; equal to Text for numbers and operators
	Kind TokenKind
	Num  float64 // the value of a Number
	// Start and End are byte offsets in the normalized question.
	Start, End int
}

// Normalize applies NFKC, case folding and quote unification.
func Normalize(s string) string {
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
	return strings.ToLower(s)
}

// Stem returns the stem of a lower-case word (English or Russian by script);
// words with digits are kept whole.
func Stem(w string) string {
	cyr, lat := 0, 0
	for _, r := range w {
		switch {
		case unicode.IsDigit(r):
			return w
		case unicode.Is(unicode.Cyrillic, r):
			cyr++
		case unicode.IsLetter(r):
			lat++
		}
	}
	if cyr > 0 && lat == 0 {
		return russian.Stem(w, true)
	}
	if cyr == 0 && lat > 0 {
		return english.Stem(w, true)
	}
	return w
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

// Tokenize splits normalized text into words, numbers and operators.
func Tokenize(s string) []Token {
	var out []Token
	i := 0
	for i < len(s) {
		r, size := decodeRune(s, i)
		switch {
		case r == '>' || r == '<' || r == '=' || r == '!' || r == '≥' || r == '≤' || r == '≠':
			j := i + size
			if j < len(s) && (s[j] == '=' || (r == '<' && s[j] == '>')) {
				j++
			}
			op := s[i:j]
			switch op {
			case "≥":
				op = ">="
			case "≤":
				op = "<="
			case "≠", "<>", "!=":
				op = "!="
			case "==":
				op = "="
			case "!":
				i = j
				continue
			}
			out = append(out, Token{Text: op, Stem: op, Kind: Op, Start: i, End: j})
			i = j
		case r == '%' || r == '$' || r == '€' || r == '£':
			out = append(out, Token{Text: string(r), Stem: string(r), Kind: Word, Start: i, End: i + size})
			i += size
		case unicode.IsDigit(r):
			i = numberToken(s, i, &out)
		case unicode.IsLetter(r) || r == '_':
			j := i
			for j < len(s) {
				r2, sz := decodeRune(s, j)
				if unicode.IsLetter(r2) || unicode.IsDigit(r2) || r2 == '_' || unicode.Is(unicode.Mn, r2) {
					j += sz
					continue
				}
				break
			}
			w := s[i:j]
			// possessive 's and contractions
			if j+1 < len(s) && s[j] == '\'' {
				rest := s[j+1:]
				switch {
				case rest == "s" || strings.HasPrefix(rest, "s ") || (len(rest) > 1 && rest[0] == 's' && !isWordByte(rest[1])):
					j += 2
				case strings.HasPrefix(rest, "t") && strings.HasSuffix(w, "n"):
					out = append(out, wordToken(strings.TrimSuffix(w, "n"), i, j-1))
					out = append(out, wordToken("not", j-1, j+2))
					i = j + 2
					continue
				}
			}
			out = append(out, wordToken(w, i, j))
			i = j
		default:
			i += size
		}
	}
	return out
}

func isWordByte(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= '0' && b <= '9' || b == '_' || b >= 0x80
}

func wordToken(w string, start, end int) Token {
	return Token{Text: w, Stem: Stem(w), Kind: Word, Start: start, End: end}
}

func decodeRune(s string, i int) (rune, int) {
	for j, r := range s[i:] {
		if j == 0 {
			size := len(string(r))
			if r == unicode.ReplacementChar {
				size = 1
			}
			return r, size
		}
	}
	return 0, 1
}

// numberToken reads a number starting at i ("10,000", "2.5", "30cm2",
// "10k", "5th") and appends its tokens.
func numberToken(s string, i int, out *[]Token) int {
	j := i
	var digits strings.Builder
	for j < len(s) {
		c := s[j]
		switch {
		case c >= '0' && c <= '9':
			digits.WriteByte(c)
			j++
			continue
		case c == ',' && j+3 < len(s)+1 && isDigits(s[j+1:min(j+4, len(s))], 3) && (j+4 >= len(s) || !(s[j+4] >= '0' && s[j+4] <= '9')):
			j++
			continue
		case c == '.' && j+1 < len(s) && s[j+1] >= '0' && s[j+1] <= '9' && !strings.Contains(digits.String(), "."):
			digits.WriteByte('.')
			j++
			continue
		}
		break
	}
	text := digits.String()
	v, _ := strconv.ParseFloat(text, 64)
	end := j
	// suffixes glued to the number
	k := j
	for k < len(s) && (s[k] >= 'a' && s[k] <= 'z' || s[k] >= '0' && s[k] <= '9') {
		k++
	}
	suffix := s[j:k]
	switch suffix {
	case "":
	case "k":
		v *= 1000
		text = strconv.FormatFloat(v, 'f', -1, 64)
		end = k
		suffix = ""
	case "st", "nd", "rd", "th":
		end = k
		suffix = ""
	}
	*out = append(*out, Token{Text: text, Stem: text, Kind: Number, Num: v, Start: i, End: end})
	if suffix != "" {
		// "30cm2" → 30, cm2; "25-oh" is handled by the dash separator
		*out = append(*out, wordToken(suffix, j, k))
		return k
	}
	return end
}

func isDigits(s string, n int) bool {
	if len(s) != n {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// StemPhrase normalizes, tokenizes and stems a phrase into a lexicon key.
func StemPhrase(s string) string {
	toks := Tokenize(Normalize(s))
	parts := make([]string, 0, len(toks))
	for _, t := range toks {
		parts = append(parts, t.Stem)
	}
	return strings.Join(parts, " ")
}

// ValueStem is the matching key of a word of a stored value: plural
// endings removed and nothing else, so "supermarkets" finds "Supermarket"
// but "provide" does not find "Providence" nor "opened" "Open". Russian
// words use the Russian stemmer (their endings carry case, not meaning).
func ValueStem(w string) string {
	cyr := false
	for _, r := range w {
		switch {
		case unicode.IsDigit(r):
			return w
		case unicode.Is(unicode.Cyrillic, r):
			cyr = true
		}
	}
	if cyr {
		return russian.Stem(w, true)
	}
	n := len(w)
	switch {
	case n <= 3:
		return w
	case strings.HasSuffix(w, "ies") && n > 4:
		return w[:n-3] + "y"
	case strings.HasSuffix(w, "sses"), strings.HasSuffix(w, "xes"), strings.HasSuffix(w, "ches"), strings.HasSuffix(w, "shes"):
		return w[:n-2]
	case strings.HasSuffix(w, "ss"), strings.HasSuffix(w, "us"), strings.HasSuffix(w, "is"):
		return w
	case strings.HasSuffix(w, "s"):
		return w[:n-1]
	}
	return w
}
