package doccheck

import (
	"fmt"
	"go/scanner"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"unicode"
)

// TestLinks checks every page and Go comment of the repository (see the
// package comment).
func TestLinks(t *testing.T) {
	root := repoRoot(t)
	probs, err := check(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range probs {
		t.Error(p)
	}
	if t.Failed() {
		t.Log("a page must stand alone in a clone: link to a page under docs/ that says the same in this project's words")
	}
}

// repoRoot returns the directory holding go.mod above the test's directory.
func repoRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test's directory")
		}
		dir = parent
	}
}

// check walks the tree under root and returns its problems, sorted, each
// starting with the repository-relative file and line.
func check(root string) ([]string, error) {
	c := &checker{root: root, headings: map[string]map[string]bool{}}
	var probs []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if p != root && (name == "testdata" || name == "node_modules" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		var fn func(rel string, src []byte) []string
		switch filepath.Ext(name) {
		case ".md":
			fn = c.markdown
		case ".go":
			fn = c.goComments
		default:
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		probs = append(probs, fn(filepath.ToSlash(rel), src)...)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("walk %s: %w", root, err)
	}
	sort.Strings(probs)
	return probs, nil
}

type checker struct {
	root string
	// headings caches each page's heading anchors, by repository path.
	headings map[string]map[string]bool
}

var (
	// mdLink is an inline link or image target: ](target) or ](target "title").
	mdLink = regexp.MustCompile(`\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)`)
	// mdRef is a reference definition: [name]: target.
	mdRef = regexp.MustCompile(`(?m)^ {0,3}\[[^\]]+\]:\s*(\S+)`)
	// htmlSrc is an HTML src or href attribute.
	htmlSrc = regexp.MustCompile(`(?:src|href)="([^"]+)"`)
	// climb is a path that starts by going up: ../x, ../../x.
	climb = regexp.MustCompile("(?:^|[\\s`(\"'=\\[<:])((?:\\.\\./)+[^\\s`)\"'\\]>,;]*)")
	// outside names documents kept outside the repository.
	outside = regexp.MustCompile(`\bspec/[\w.-]+\.md\b|\bARCHITECTURE(?:\.md\b|\s*§)|(?:^|[^\w/.-])seeds/`)
	// repoPath is a path under one of the repository's top-level folders.
	repoPath = regexp.MustCompile(`(?:^|[^\w./-])((?:docs|internal|cmd|tools|testdata)/[\w./*-]*[\w*/])`)
	// bareMD is a page named without a folder.
	bareMD = regexp.MustCompile(`(?:^|[^\w./-])([\w-]+\.md)\b`)
	// section is a citation of a page's heading.
	section = regexp.MustCompile(`([\w./-]+\.md), section "([^"]+)"`)
	scheme  = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+.-]*:`)
	// placeholder is a part of a path written in capitals: NAME, DIALECT.
	placeholder = regexp.MustCompile(`\b[A-Z][A-Z0-9_]+\b`)
)

// markdown checks one page.
func (c *checker) markdown(rel string, src []byte) []string {
	var probs []string
	report := func(line int, format string, args ...any) {
		probs = append(probs, fmt.Sprintf("%s:%d: %s", rel, line, fmt.Sprintf(format, args...)))
	}
	dir := path.Dir(rel)
	inFence := false
	for i, line := range strings.Split(string(src), "\n") {
		n := i + 1
		if isFence(line) {
			inFence = !inFence
			continue
		}
		for _, m := range climb.FindAllStringSubmatch(line, -1) {
			if escapes(dir, m[1]) {
				report(n, "%s leaves the repository", m[1])
			}
		}
		for _, m := range outside.FindAllString(line, -1) {
			report(n, "%q cites a document that is not in the repository", strings.TrimSpace(m))
		}
		if inFence {
			continue
		}
		var targets []string
		for _, re := range []*regexp.Regexp{mdLink, mdRef, htmlSrc} {
			for _, m := range re.FindAllStringSubmatch(stripCode(line), -1) {
				targets = append(targets, m[1])
			}
		}
		for _, target := range targets {
			if msg := c.target(rel, target); msg != "" {
				report(n, "%s", msg)
			}
		}
	}
	return probs
}

// target checks one link target of page rel and returns the problem or "".
func (c *checker) target(rel, target string) string {
	if scheme.MatchString(target) {
		return "" // a URL: not this repository's to check
	}
	file, frag, _ := strings.Cut(target, "#")
	dest := rel
	if file != "" {
		if escapes(path.Dir(rel), file) {
			return "" // reported as a climb
		}
		dest = path.Clean(path.Join(path.Dir(rel), file))
		if _, err := os.Stat(filepath.Join(c.root, filepath.FromSlash(dest))); err != nil {
			return fmt.Sprintf("link %s: %s does not exist", target, dest)
		}
	}
	if frag == "" || path.Ext(dest) != ".md" {
		return ""
	}
	if !c.anchors(dest)[frag] {
		return fmt.Sprintf("link %s: %s has no heading #%s", target, dest, frag)
	}
	return ""
}

// goComments checks the comments of one Go file. The file is scanned, not
// parsed, so a file that does not compile is still checked.
func (c *checker) goComments(rel string, src []byte) []string {
	var probs []string
	fset := token.NewFileSet()
	file := fset.AddFile(rel, -1, len(src))
	var s scanner.Scanner
	s.Init(file, src, nil, scanner.ScanComments)
	dir := path.Dir(rel)
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		if tok != token.COMMENT {
			continue
		}
		line := fset.Position(pos).Line
		// a citation may wrap onto the next comment line: join the lines
		text := strings.Join(strings.Fields(strings.NewReplacer("//", " ", "/*", " ", "*/", " ").Replace(lit)), " ")
		for _, msg := range c.commentText(dir, text) {
			probs = append(probs, fmt.Sprintf("%s:%d: %s", rel, line, msg))
		}
	}
	return probs
}

// commentText checks the text of one comment of a Go file in folder dir.
func (c *checker) commentText(dir, text string) []string {
	var probs []string
	for _, m := range climb.FindAllStringSubmatch(text, -1) {
		if escapes(dir, m[1]) {
			probs = append(probs, m[1]+" leaves the repository")
		}
	}
	for _, m := range outside.FindAllString(text, -1) {
		probs = append(probs, fmt.Sprintf("%q cites a document that is not in the repository", strings.TrimSpace(m)))
	}
	for _, m := range repoPath.FindAllStringSubmatch(text, -1) {
		p := strings.TrimSuffix(strings.TrimSuffix(m[1], "..."), "/")
		p = strings.TrimRight(p, ".")
		if !c.exists(dir, p) {
			probs = append(probs, p+" does not exist")
		}
	}
	for _, m := range bareMD.FindAllStringSubmatch(text, -1) {
		if !c.exists(dir, m[1]) && !c.exists(dir, "docs/"+m[1]) {
			probs = append(probs, m[1]+" names a page that does not exist")
		}
	}
	for _, m := range section.FindAllStringSubmatch(text, -1) {
		page := m[1]
		if !strings.Contains(page, "/") {
			page = "docs/" + page
		}
		if placeholder.MatchString(page) || !c.exists(dir, page) {
			continue // an example, or reported above
		}
		if !c.anchors(page)[slug(m[2])] {
			probs = append(probs, fmt.Sprintf("%s has no section %q", page, m[2]))
		}
	}
	return probs
}

// exists reports whether p (a glob, whose parts in capitals stand for any
// name) names something beside the file (in folder dir) or from the
// repository root.
func (c *checker) exists(dir, p string) bool {
	p = placeholder.ReplaceAllString(p, "*")
	for _, base := range []string{dir, "."} {
		hits, _ := filepath.Glob(filepath.Join(c.root, filepath.FromSlash(base), filepath.FromSlash(p)))
		if len(hits) > 0 {
			return true
		}
	}
	return false
}

// escapes reports whether p, read from folder dir of the repository,
// leaves the repository.
func escapes(dir, p string) bool {
	return strings.HasPrefix(path.Clean(path.Join(dir, p)), "..")
}

// anchors returns the heading anchors of a page (a repository path).
func (c *checker) anchors(page string) map[string]bool {
	if a, ok := c.headings[page]; ok {
		return a
	}
	a := map[string]bool{}
	c.headings[page] = a
	src, err := os.ReadFile(filepath.Join(c.root, filepath.FromSlash(page)))
	if err != nil {
		return a
	}
	inFence := false
	seen := map[string]int{}
	for _, line := range strings.Split(string(src), "\n") {
		if isFence(line) {
			inFence = !inFence
			continue
		}
		if inFence || !strings.HasPrefix(line, "#") {
			continue
		}
		title := strings.TrimSpace(strings.TrimLeft(line, "#"))
		s := slug(title)
		if k := seen[s]; k > 0 {
			a[fmt.Sprintf("%s-%d", s, k)] = true
		} else {
			a[s] = true
		}
		seen[s]++
	}
	return a
}

// slug is the anchor GitHub gives a heading: lower case, punctuation
// dropped, spaces made hyphens.
func slug(title string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(stripCode(title)) {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_':
			b.WriteRune(r)
		case r == ' ':
			b.WriteRune('-')
		}
	}
	return b.String()
}

// stripCode removes the backticks of inline code, keeping its text.
func stripCode(s string) string { return strings.ReplaceAll(s, "`", "") }

func isFence(line string) bool {
	l := strings.TrimSpace(line)
	return strings.HasPrefix(l, "```") || strings.HasPrefix(l, "~~~")
}
