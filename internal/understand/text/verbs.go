package text

import "strings"

// VerbForm reports whether a lower-case English word is a form of a
// common verb ("lost", "won", "departing", "spoken", "arrives", "live"),
// and whether the form is one only a verb takes (a past tense or
// participle, an -ing form) rather than one a noun shares (a base form or
// an -s form: "films", "ship"). Understanding reads an unlinked verb
// between things a question names as the link between them, which
// carries no condition of its own; words far more often nouns or
// adjectives than verbs ("weather", "open", "rate") are not in the list.
func VerbForm(w string) (verb, unambiguous bool) {
	switch {
	case irregularVerbForms[w]:
		return true, true
	case verbBase[w]:
		return true, false
	}
	inflected := strings.HasSuffix(w, "ed") || strings.HasSuffix(w, "ing")
	for _, b := range verbBases(w) {
		if verbBase[b] || inflected && nounVerbs[b] {
			return true, inflected
		}
	}
	return false, false
}

// nounVerbs are verbs far more often read as nouns of data ("ship",
// "order"): only their -ed and -ing forms ("shipped", "ordering") count.
var nounVerbs = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`ship order book rate price cost name list record rank stock play score review
		total count file post mark tag label group sort plan budget bill invoice
		charge fund sign star title type date time schedule contract license host head chair staff house
		room seat table`) {
		m[w] = true
	}
	return m
}()

// verbBases returns the base forms a regular inflection of w may come
// from: -s/-es, -ed/-d, -ing, with a final e restored and a doubled
// consonant undone ("arriving" → arrive, "winning" → win).
func verbBases(w string) []string {
	var out []string
	add := func(stem string) {
		if len(stem) < 2 {
			return
		}
		out = append(out, stem, stem+"e")
		if n := len(stem); n > 2 && stem[n-1] == stem[n-2] {
			out = append(out, stem[:n-1])
		}
		if strings.HasSuffix(stem, "i") {
			out = append(out, stem[:len(stem)-1]+"y") // carried → carry
		}
	}
	switch {
	case strings.HasSuffix(w, "ing"):
		add(strings.TrimSuffix(w, "ing"))
	case strings.HasSuffix(w, "ed"):
		add(strings.TrimSuffix(w, "ed"))
		out = append(out, strings.TrimSuffix(w, "d"))
	case strings.HasSuffix(w, "ies"):
		out = append(out, strings.TrimSuffix(w, "ies")+"y")
	case strings.HasSuffix(w, "es"):
		out = append(out, strings.TrimSuffix(w, "es"), strings.TrimSuffix(w, "s"))
	case strings.HasSuffix(w, "s"):
		out = append(out, strings.TrimSuffix(w, "s"))
	}
	return out
}

var verbBase = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(verbList) {
		m[w] = true
	}
	return m
}()

var irregularVerbForms = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(irregularList) {
		m[w] = true
	}
	return m
}()

// verbList holds common verbs that relate things in questions about data.
// Verbs mostly used as nouns of data (order, sale, ship, book, rate,
// price, cost, name, count, total, list, report, review, score, record,
// rank, stock, play, match, state, award) are left out on purpose.
const verbList = `
accept accompany achieve acquire act add admit adopt advise affect afford agree aim air allow announce
answer appear apply appoint approve argue arrange arrest arrive ask assign assist associate assume attach
attack attempt attend attract avoid award bake base bear beat become begin behave belong bid bind borrow
bother break breed bring build burn buy calculate call care carry cast catch cause celebrate change charge
chase check choose claim clean clear climb coach collect come commit compare compete complain
complete compose compute concern conduct confirm connect consider consist construct consume contain
continue contribute control convert cook cooperate coordinate copy cover create cross cry cut damage deal
debut decide declare decline decrease defeat defend define deliver demand deny depart depend deploy
describe design destroy determine develop die differ direct disappear discover discuss dispatch display
distribute divide do donate download draw dream drink drive drop earn eat edit educate elect eliminate
employ enable encourage end endorse engage enjoy enroll enrol ensure enter equip escape establish estimate
evaluate examine exceed exchange exist expand expect experience explain explore export express extend
face fail fall feature feed feel fight file fill film finance find fire fit fix fly focus follow
forget form found fund gain gather generate get give go graduate grant grow guarantee guide handle hang
hand happen hate head hear help hide hire hit hold host house hunt identify ignore illustrate imagine implement
import improve include increase indicate influence inform inherit injure install instruct intend interact
introduce invent invest invite involve issue join judge jump keep kick kill know land last launch lay lead
learn leave lend let license lie lift like link live locate lodge look lose love maintain major make manage
manufacture mark marry mean measure meet mention merge migrate mind miss mix monitor move need negotiate
nominate note notice obtain occupy occur offer operate organize organise originate own participate
pass pay perform permit pick pitch place plan plant pledge point possess post practice practise prefer
prepare present preserve press prevent print process produce promote propose protect prove provide
publish pull purchase pursue push put qualify raise reach read realize realise receive recognize
recommend recover recruit reduce refer reflect refuse register reject relate release rely remain remember
remove rent repair repeat replace reply represent request require rescue research reserve reside resign
resolve respond rest restore result retain retire return reveal ride ring rise risk rob roll rule run
save say schedule search secure see seek select sell send serve set settle shape share shine shoot show
sign sing sit sleep slow smile solve sort speak specialize specialise spend split sponsor spread stand
star start stay steal stop store strike study submit succeed suffer suggest supervise supply support
suppose survive swim take talk target teach tell tend test thank think throw tour trade train transfer
translate transport travel treat trust try turn undergo understand unite update upgrade use
verify visit vote wait walk want warn wash watch wear win wish withdraw work worry write yield`

// irregularList holds irregular past tenses and participles.
const irregularList = `
arose arisen awoke awoken was were been bore borne beat beaten became begun began bent bet bid bound bit
bitten bled blew blown broke broken bred brought built burnt bought caught chose chosen came cost crept
dealt dug did done drew drawn dreamt drank drunk drove driven ate eaten fell fallen fed felt fought found
fled flew flown forbade forbidden forgot forgotten froze frozen got gotten gave given went gone grew
grown hung had heard hid hidden held hurt kept knelt knew known laid led leant left lent lay lain lit
lost made meant met paid put quit read rode ridden rang rung rose risen ran said saw seen sought sold
sent set shook shaken shone shot shown shut sang sung sank sunk sat slept slid spoke spoken sped spent
spun spread stood stole stolen stuck stung struck swore sworn swept swam swum swung took taken taught
tore torn told thought threw thrown understood woke woken wore worn wept won wound wrote written`
