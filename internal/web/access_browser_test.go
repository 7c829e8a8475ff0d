package web_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/clarify-sql/clarify/internal/access"
	"github.com/clarify-sql/clarify/internal/config"
	"github.com/clarify-sql/clarify/internal/server"
	"github.com/clarify-sql/clarify/internal/testdb"
)

// signInTo types key into the page's key prompt and waits for source.
func (p *page) signInTo(key, source string) {
	p.t.Helper()
	p.do(chromedp.Navigate(p.site.url + "/"))
	p.wait("the key prompt", `document.querySelector(".card.key input") !== null`)
	p.do(chromedp.SendKeys(chromedp.CSS(`.card.key input`), key+"\r"))
	p.wait("the sources", `document.querySelector("#source option[value=`+source+`]") !== null`)
}

// TestTwoUsersWeb: in the web chat, alice (patients L1 Ivan Petrov and L2
// John Doe) is offered only her patients, cannot type her way to Maria
// Rodriguez (L3) nor ask for her by name; bob (L3 only) is answered for
// Maria and never sees the others' names.
// It runs on a SQLite and a PostgreSQL store.
func TestTwoUsersWeb(t *testing.T) {
	for name, dsn := range map[string]func(*testing.T) string{
		"sqlite": func(t *testing.T) string { return "sqlite:" + filepath.Join(t.TempDir(), "store.db") },
		"postgres": func(t *testing.T) string {
			_, _, dsn := testdb.PostgresSchema(t, "web_access")
			return dsn
		},
	} {
		t.Run(name, func(t *testing.T) { twoUsersWeb(t, dsn(t)) })
	}
}

func twoUsersWeb(t *testing.T, dsn string) {
	pol := access.New(config.Access{Users: []config.Grant{
		{Name: "alice", Sources: []string{"labs"}, Scope: map[string]config.ScopeGrant{"labs": {Values: []string{"L1", "L2"}}}},
		{Name: "bob", Sources: []string{"labs"}, Scope: map[string]config.ScopeGrant{"labs": {Values: []string{"L3"}}}},
	}})
	s := startSiteStore(t, dsn, nil, pol, server.Key{User: "alice", SHA256: server.HashKey("alice-key")}, server.Key{User: "bob", SHA256: server.HashKey("bob-key")})

	a := openPage(t, s)
	a.expectFailedRequests(1) // the first /v1/sources, before the key
	a.signInTo("alice-key", "labs")
	if n := evalJS[int](a, `document.querySelectorAll("#source option").length`); n != 1 {
		a.fail("alice is offered %d sources, want labs only", n)
	}
	a.ask("show my lab results")
	if kind := a.waitClarification(); kind != "scope" {
		a.fail("alice was asked %q, want which patient", kind)
	}
	opts := evalJS[string](a, openCard+`.textContent`)
	if !strings.Contains(opts, "Ivan Petrov") || !strings.Contains(opts, "John Doe") || strings.Contains(opts, "Maria") {
		a.fail("alice's options read %q", opts)
	}
	// typing another patient's name does not choose her
	a.do(chromedp.SendKeys(chromedp.ID("question"), "Maria Rodriguez"), chromedp.Click(chromedp.ID("send")))
	a.wait("the card again", `!document.body.classList.contains("busy") && `+openCard+` !== null`)
	if n := evalJS[int](a, answerCount); n != 0 {
		a.fail("alice got %d answers by typing Maria's name", n)
	}
	// asking for her by name is refused, in words
	a.do(chromedp.Click(chromedp.ID("new-conversation")))
	a.expectFailedRequests(1) // the refused question
	a.ask("lab results for Maria Rodriguez")
	a.wait("the refusal", `document.body.textContent.includes("You don't have access to that person's data")`)
	if n := evalJS[int](a, answerCount); n != 0 {
		a.fail("alice got an answer about Maria")
	}

	b := openPage(t, s)
	b.expectFailedRequests(1)
	evalJS[chromedp.Void](a, `localStorage.removeItem("clarify.apiKey")`) // the browser profile is shared
	b.signInTo("bob-key", "labs")
	b.ask("show my lab results")
	for range 3 { // answer whatever else is asked with the first option
		b.wait("a card or an answer", `!document.body.classList.contains("busy") && (`+openCard+` !== null || `+answerCount+` > 0)`)
		if evalJS[int](b, answerCount) > 0 {
			break
		}
		if kind := evalJS[string](b, openCard+`.dataset.kind`); kind == "scope" {
			b.fail("bob, with one patient, was asked which")
		}
		b.choose(`/./`)
	}
	if b.waitAnswer(1) == 0 {
		b.fail("bob's answer has no rows")
	}
	page := evalJS[string](b, `document.body.textContent`)
	if !strings.Contains(page, "Maria Rodriguez") || strings.Contains(page, "Ivan") || strings.Contains(page, "John Doe") {
		b.fail("bob's page names another patient or not his own")
	}
}
