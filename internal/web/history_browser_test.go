package web_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/clarify-sql/clarify/internal/server"
)

const historyItems = `document.querySelectorAll("#history[open] .history-item")`

// signIn types an API key into the page's key prompt.
func (p *page) signIn(key string) {
	p.t.Helper()
	p.do(chromedp.Navigate(p.site.url + "/"))
	p.wait("the key prompt", `document.querySelector(".card.key input") !== null`)
	p.do(chromedp.SendKeys(chromedp.CSS(`.card.key input`), key+"\r"))
	p.wait("the sources", `document.querySelector("#source option[value=clinic]") !== null`)
}

// openHistory opens the History panel and waits for its list.
func (p *page) openHistory() {
	p.t.Helper()
	p.do(chromedp.Click(chromedp.ID("history-open")))
	p.wait("the history list", `document.querySelector("#history[open] .history-list, #history[open] .empty-history") !== null`)
}

// TestHistory asks two questions in two conversations, finds both in the
// History panel (newest first, with what each answered), reopens the
// first and sees its answer again; another user's History is empty.
func TestHistory(t *testing.T) {
	s := startSite(t, server.Key{User: "ana", SHA256: server.HashKey("ana-secret")}, server.Key{User: "bo", SHA256: server.HashKey("bo-secret")})
	p := openPage(t, s)
	p.expectFailedRequests(1) // the first /v1/sources, before the key
	p.signIn("ana-secret")

	first := "Which patients have severe wounds?"
	p.ask(first)
	p.waitClarification()
	p.choose(`/infect/i`)
	rows := p.waitAnswer(1)
	firstID := strings.TrimPrefix(evalJS[string](p, `location.hash`), "#c=")
	firstStatement := evalJS[string](p, `document.querySelector(".card.answer .statement").textContent`)

	p.do(chromedp.Click(chromedp.ID("new-conversation")))
	second := "How many open wounds per clinic?"
	p.ask(second)
	p.waitAnswer(1)
	secondID := strings.TrimPrefix(evalJS[string](p, `location.hash`), "#c=")
	if firstID == "" || secondID == "" || firstID == secondID {
		p.fail("two conversations, ids %q and %q", firstID, secondID)
	}

	p.openHistory()
	p.wait("two conversations", historyItems+`.length === 2`)
	type entry struct {
		ID, Question, Statement, Meta string
	}
	entries := evalJS[[]entry](p, `[...`+historyItems+`].map((b) => ({ID: b.dataset.id,
		Question: b.querySelector(".history-question").textContent,
		Statement: (b.querySelector(".history-statement") || {}).textContent || "",
		Meta: b.querySelector(".history-meta").textContent}))`)
	if entries[0].ID != secondID || entries[1].ID != firstID {
		p.fail("History lists %+v; want the second conversation, then the first", entries)
	}
	if entries[1].Question != first || entries[0].Question != second {
		p.fail("the questions listed are %q and %q", entries[0].Question, entries[1].Question)
	}
	for _, e := range entries {
		if !strings.Contains(e.Meta, "clinic") || !strings.Contains(e.Meta, "Answered") || e.Statement == "" {
			p.fail("an entry reads %+v; want its source, its status and its answer", e)
		}
	}
	if !strings.Contains(strings.ToLower(entries[1].Statement), "infected") {
		p.fail("the first conversation's statement is %q", entries[1].Statement)
	}
	if !evalJS[bool](p, `!!document.querySelector("#history[open] .history-meta time[datetime]")`) {
		p.fail("the entries do not say when they were asked")
	}

	// reopen the first: its answer is shown again, the panel is closed
	p.do(chromedp.Click(chromedp.CSS(fmt.Sprintf(`#history .history-item[data-id=%q]`, firstID))))
	p.wait("the first conversation", fmt.Sprintf(`location.hash === %q && !document.getElementById("history").open && !document.body.classList.contains("busy") && document.querySelectorAll(".card.answer").length === 1 && [...document.querySelectorAll(".msg.user")].some((m) => m.textContent.includes(%q))`, "#c="+firstID, first))
	if got := p.rowCount(); got != rows {
		p.fail("the reopened answer shows %d rows, it showed %d", got, rows)
	}
	if text := evalJS[string](p, `document.querySelector(".card.answer .statement").textContent`); text != firstStatement {
		p.fail("the reopened answer does not say %q", firstStatement)
	}

	// on a phone every control of the panel is at least 44 px high
	p.do(chromedp.EmulateViewport(375, 740, chromedp.EmulateMobile))
	p.openHistory()
	p.wait("the list again", historyItems+`.length === 2`)
	small := evalJS[[]string](p, `[document.getElementById("history-open"), document.getElementById("history-close"), ...`+historyItems+`].filter((e) => { const r = e.getBoundingClientRect(); return r.height < 44 || r.width < 44; }).map((e) => e.id || e.className)`)
	if len(small) > 0 {
		p.fail("tap targets under 44 px at 375 px wide: %q", small)
	}
	p.do(key(kb.Escape))
	p.wait("the panel closed", `!document.getElementById("history").open`)

	// another user sees none of them, and cannot open them
	b := openPage(t, s)
	b.expectFailedRequests(2) // the first /v1/sources, and ana's conversation
	evalJS[chromedp.Void](p, `localStorage.removeItem("clarify.apiKey")`)
	b.signIn("bo-secret")
	b.openHistory()
	if n := evalJS[int](b, historyItems+`.length`); n != 0 || !evalJS[bool](b, `!!document.querySelector("#history .empty-history")`) {
		b.fail("bo's History lists %d conversations", n)
	}
	b.do(key(kb.Escape))
	b.do(chromedp.Navigate(s.url + "/#c=" + firstID))
	b.wait("the conversation refused", `document.body.textContent.includes("That conversation is gone")`)
}

// TestHistoryMore pages through more conversations than one page holds.
func TestHistoryMore(t *testing.T) {
	// 22 conversations are made through the API faster than a person
	// would ask them: no rate limit
	s := startSiteLimited(t, &server.RateLimit{})
	var created []string
	for range 22 {
		resp, err := http.Post(s.url+"/v1/conversations", "application/json",
			strings.NewReader(`{"question": "How many open wounds per clinic?", "interactive": false}`))
		if err != nil {
			t.Fatal(err)
		}
		var r struct {
			ConversationID string `json:"conversation_id"`
		}
		err = json.NewDecoder(resp.Body).Decode(&r)
		resp.Body.Close()
		if err != nil || r.ConversationID == "" {
			t.Fatalf("ask: %d %v", resp.StatusCode, err)
		}
		created = append([]string{r.ConversationID}, created...) // newest first
	}
	p := openPage(t, s)
	p.open("/")
	p.openHistory()
	p.wait("the first page", historyItems+`.length === 20 && !document.getElementById("history-more").hidden`)
	p.do(chromedp.Click(chromedp.ID("history-more")))
	p.wait("the second page", historyItems+`.length === 22 && document.getElementById("history-more").hidden`)
	ids := evalJS[[]string](p, `[...`+historyItems+`].map((b) => b.dataset.id)`)
	if diff := cmp.Diff(created, ids); diff != "" {
		p.fail("History lists the conversations out of order (-created, newest first +listed):\n%s", diff)
	}
	if !evalJS[bool](p, `document.activeElement === `+historyItems+`[20]`) {
		p.fail("the focus is not on the first conversation loaded")
	}
}
