package introspect

import (
	"slices"
	"strconv"
	"strings"

	"github.com/clarify-sql/clarify/internal/model"
)

// entityVariants are other words for common entities, keyed by label.
var entityVariants = map[string][]string{
	"person":       {"persons", "individual"},
	"customer":     {"client"},
	"client":       {"customer"},
	"employee":     {"staff member", "worker", "staff"},
	"staff":        {"employee", "staff member"},
	"supplier":     {"vendor"},
	"vendor":       {"supplier"},
	"author":       {"writer"},
	"invoice":      {"bill"},
	"city":         {"town"},
	"country":      {"nation"},
	"loan":         {"checkout", "borrowing"},
	"department":   {"dept"},
	"salesperson":  {"sales rep"},
	"stock item":   {"product", "item"},
	"item":         {"product"},
	"product":      {"item"},
	"order line":   {"order item", "line item"},
	"order item":   {"order line", "line item"},
	"invoice line": {"invoice item"},
	"movie":        {"film"},
	"film":         {"movie"},
	"instructor":   {"teacher", "professor", "lecturer"},
	"teacher":      {"instructor"},
	"classroom":    {"room"},
	"staff member": {"employee"},
	"pupil":        {"student"},
	"airline":      {"carrier"},
	"automobile":   {"car"},
	"car":          {"vehicle"},
	"physician":    {"doctor"},
	"doctor":       {"physician"},
	"purchase":     {"order"},
	"shipper":      {"shipping company", "carrier"},
}

// entitySynonyms sets each entity's synonyms: its label and plural, its
// whole name when an area prefix was stripped, and common variants that
// name no other entity.
func (d *drafter) entitySynonyms() {
	for _, e := range d.ents {
		e.synonyms = []string{e.label, e.plural}
		if len(e.base) < len(e.words) {
			whole := singularPhrase(e.words)
			e.synonyms = append(e.synonyms, whole, pluralPhrase(whole))
		}
		for _, s := range e.synonyms {
			d.entityWords[normPhrase(s)] = true
		}
		d.entityWords[normPhrase(humanize(e.name))] = true
	}
	// "cust order" is a customer order, and, when no other table is, an
	// "order"
	for _, e := range d.ents {
		w := strings.Fields(e.label)
		if len(w) < 2 {
			continue
		}
		full, ok := abbreviations[w[0]]
		if !ok {
			continue
		}
		long := full + " " + strings.Join(w[1:], " ")
		for _, v := range []string{long, strings.Join(w[1:], " ")} {
			if !d.entityWords[normPhrase(v)] {
				d.entityWords[normPhrase(v)] = true
				e.synonyms = append(e.synonyms, v, pluralPhrase(v))
			}
		}
	}
	// countrylanguage is about languages (of countries): the head of a
	// name that starts with another table's is a word for the table,
	// unless another table has it or it is too generic
	for _, e := range d.ents {
		w := strings.Fields(e.label)
		if len(w) != 2 || e.link || genericHead[w[1]] || e.byName[w[1]] != nil || hasColumnWord(e, w[1]) {
			continue
		}
		for _, o := range d.ents {
			// singer_age is not "age": singers have an age of their own
			if o != e && o.label == w[0] && !d.entityWords[normPhrase(w[1])] && !hasColumnWord(o, w[1]) {
				d.entityWords[normPhrase(w[1])] = true
				e.synonyms = append(e.synonyms, w[1], plural(w[1]))
				break
			}
		}
	}
	for _, e := range d.ents {
		for _, v := range entityVariants[e.label] {
			if d.entityWords[normPhrase(v)] {
				continue
			}
			d.entityWords[normPhrase(v)] = true
			e.synonyms = append(e.synonyms, v, pluralPhrase(v))
		}
		e.synonyms = dedupe(e.synonyms)
	}
}

// genericHead are words too generic to name a table alone.
var genericHead = map[string]bool{"item": true, "line": true, "detail": true, "history": true, "status": true,
	"type": true, "log": true, "entry": true, "record": true, "info": true, "data": true, "link": true, "map": true,
	"assignment": true, "relation": true, "member": true, "list": true}

// abbreviations are short forms table names start with.
var abbreviations = map[string]string{"cust": "customer", "prod": "product", "emp": "employee", "dept": "department",
	"inv": "invoice", "acct": "account", "txn": "transaction", "addr": "address", "cat": "category", "mgr": "manager",
	"org": "organization", "loc": "location", "svc": "service", "sup": "supplier", "supp": "supplier", "vend": "vendor",
	"stu": "student", "pat": "patient", "doc": "document", "pers": "person", "usr": "user", "trans": "transaction"}

// deniedWords are never a generated column synonym on their own: the
// built-in words of questions (aggregates, comparisons, time words,
// fillers) and words too generic to name one column.
var deniedWords = wordSet(`id no nr num number count total sum avg average mean max min maximum minimum
	top best worst by per each every of on at in to from since until before after for with without not and or
	the a an is has was last latest first next current new recent all any value values data info information
	record records row rows time year years month months week weeks day days today yesterday high low more
	less over under above below code key flag ref fk pk level levels result results kind list show item items
	detail details`)

func wordSet(words string) map[string]bool {
	set := map[string]bool{}
	for _, w := range strings.Fields(words) {
		set[w] = true
	}
	return set
}

// columnSynonyms derives the words that name a column from its name: the
// name humanized (camelCase and underscores split), the name without the
// entity's own name (customer_category → category), its head noun
// (unit_price → price), what a time column's event is called (hire_date →
// hired, created_at → created, and date), and a few well-known variants.
// A synonym that names an entity, or is another column's name in the same
// entity, is dropped.
func (d *drafter) columnSynonyms(e *entity, c *column) []string {
	w := c.words
	if c.precomputes != "" {
		// "average age" is the average of the ages, asked between the two
		// sources, not this column by its name
		return nil
	}
	var syn []string
	add := func(s ...string) { syn = append(syn, s...) }
	if len(w) > 1 {
		add(strings.Join(w, " "))
	}
	// birth_year is when they were "born", open_year when "opened"
	if c.grain != "" {
		core := slices.DeleteFunc(slices.Clone(w), func(x string) bool { return x == "year" || x == "yr" || x == "of" })
		if len(core) == 1 {
			if p := participle(core[0]); p != "" && p != core[0] {
				add(p)
			}
		}
	}
	stripped := stripEntity(w, e)
	switch c.role {
	case model.RoleID:
		if c.c.Name == e.key && (len(w) == 1 || len(stripped) == 1) && last(w) == "id" {
			add(e.label + " id")
		}
		// a reference holding codes people read ("template type code"):
		// its name without the table's, like any column's
		if c.references != "" && c.kind == KindText && last(w) != "id" {
			add(strings.Join(stripped, " "))
		}
		// the role a reference names: manager_id is the "manager",
		// salesRepEmployeeNumber the "sales rep"
		if role := d.referenceRole(c); role != "" {
			add(role)
		}
		return d.keepSynonyms(e, c, syn)
	case model.RoleTime:
		add(timeSynonyms(w)...)
	case model.RoleFlag:
		if c.label != "" {
			add(c.label)
		}
		return d.keepSynonyms(e, c, syn)
	}
	if c.label != "" && c.label != strings.Join(w, " ") {
		add(c.label)
	}
	if len(stripped) > 0 && len(stripped) < len(w) {
		add(strings.Join(stripped, " "))
	}
	// net_worth_millions is the "net worth", in millions
	if len(w) > 1 && hasWord([]string{last(w)}, "millions", "million", "thousands", "thousand", "billions", "billion", "mil", "mln", "bn") {
		add(strings.Join(w[:len(w)-1], " "))
	}
	if len(w) > 1 && c.role != model.RoleTime && !qualifiers[w[0]] &&
		!hasWord(w, "of", "on", "in", "at", "per", "by", "for", "to", "from") {
		head := last(w)
		if c.unit != "" {
			head = last(w[:len(w)-1])
		}
		add(head)
	}
	add(variants[strings.Join(w, " ")]...)
	add(shapeSynonyms(w)...)
	// level_of_membership is also the "membership level"
	if i := slices.Index(w, "of"); i > 0 && i < len(w)-1 && !hasWord(w, "number", "num", "no") {
		add(strings.Join(append(append([]string{}, w[i+1:]...), w[:i]...), " "))
	}
	// num_pages is the "number of pages"
	if len(w) > 1 && (w[0] == "num" || w[0] == "no" || w[0] == "nbr" || w[0] == "number") && w[1] != "of" {
		add("number of " + strings.Join(w[1:], " "))
	}
	// "stock qty" is also "stock quantity"
	if len(w) > 1 {
		for i, x := range w {
			for _, v := range variants[x] {
				// "stock qty" is "stock quantity"; "au fname" the "au first name"
				if !strings.Contains(v, " ") || i == len(w)-1 {
					add(strings.Join(append(append(append([]string{}, w[:i]...), v), w[i+1:]...), " "))
				}
			}
		}
	}
	if c.role == model.RoleName && c.c.Name == e.display && last(w) == "name" {
		add("name")
	}
	if c.c.Name != e.display {
		// "name" alone is the row's name: the display column's word, not
		// every column that ends in name (contact_last_name)
		syn = slices.DeleteFunc(syn, func(s string) bool { return s == "name" || s == "title" && c.role == model.RoleName })
	}
	return d.keepSynonyms(e, c, syn)
}

// ordinals name the parts a trailing number counts: line_1 is the "first
// line".
var ordinals = []string{"", "first", "second", "third", "fourth", "fifth"}

var numberNames = []string{"", "one", "two", "three", "four", "five"}

// agentNouns name who did what a "<participle> by" column records:
// directed_by is the "director".
var agentNouns = map[string]string{"directed": "director", "written": "writer", "produced": "producer",
	"created": "creator", "owned": "owner", "managed": "manager", "edited": "editor", "composed": "composer",
	"designed": "designer", "performed": "performer", "sung": "singer", "played": "player", "hosted": "host",
	"narrated": "narrator", "illustrated": "illustrator", "translated": "translator", "published": "publisher",
	"approved": "approver", "reviewed": "reviewer", "sold": "seller", "bought": "buyer", "taught": "teacher",
	"coached": "coach", "assigned": "assignee", "reported": "reporter"}

// eventNouns name the event a participle dates: date_departed is the
// "departure".
var eventNouns = map[string]string{"departed": "departure", "arrived": "arrival", "adopted": "adoption",
	"registered": "registration", "enrolled": "enrollment", "graduated": "graduation", "delivered": "delivery",
	"shipped": "shipment", "paid": "payment", "purchased": "purchase", "released": "release", "published": "publication",
	"admitted": "admission", "discharged": "discharge", "completed": "completion", "cancelled": "cancellation",
	"approved": "approval", "submitted": "submission", "hired": "hire", "retired": "retirement"}

// shapeSynonyms are what a name's shape says it is also called: line_1
// the "first line", directed_by the "director", role_code the "role",
// date_departed the "departure date".
func shapeSynonyms(w []string) []string {
	var out []string
	n := len(w)
	if n == 0 {
		return nil
	}
	// a trailing number counts parts: the first line, line one
	if k, err := strconv.Atoi(w[n-1]); err == nil && n > 1 && k >= 1 && k < len(ordinals) {
		rest := strings.Join(w[:n-1], " ")
		out = append(out, ordinals[k]+" "+rest, rest+" "+numberNames[k])
	}
	// directed_by: the director, the directors
	if n == 2 && w[1] == "by" {
		if a, ok := agentNouns[w[0]]; ok {
			out = append(out, a)
		}
	}
	// role_code: the role
	if n >= 2 && (w[n-1] == "code" || w[n-1] == "cd") && !deniedWords[w[n-2]] {
		out = append(out, strings.Join(w[:n-1], " "))
	}
	// date_departed, departed_at: the departure (date)
	for _, x := range w {
		if noun, ok := eventNouns[x]; ok {
			out = append(out, noun+" date", noun)
		}
	}
	return out
}

// qualifiers make a name's head noun wrong on its own: max_salary is not
// "the salary", recommended_retail_price not "the price".
var qualifiers = wordSet(`min max minimum maximum low high lowest highest expected recommended target estimated
	planned previous prior old new original reference default avg average median last first next`)

// variants are well-known other words for common column names.
var variants = map[string][]string{
	"first name":    {"given name"},
	"last name":     {"surname", "family name"},
	"surname":       {"last name", "family name"},
	"full name":     {"name"},
	"email":         {"e-mail", "email address"},
	"email address": {"email", "e-mail"},
	"phone":         {"phone number", "telephone"},
	"phone number":  {"phone", "telephone"},

	"qty":           {"quantity", "copies"},
	"quantity":      {"copies"},
	"min":           {"minimum"},
	"max":           {"maximum"},
	"avg":           {"average"},
	"pct":           {"percent", "percentage", "rate"},
	"amt":           {"amount"},
	"num":           {"number"},
	"no":            {"number"},
	"nbr":           {"number"},
	"desc":          {"description"},
	"addr":          {"address"},
	"zip":           {"zip code", "postcode"},
	"sex":           {"gender"},
	"gender":        {"sex"},
	"salary":        {"wage", "wages"},
	"mpg":           {"miles per gallon"},
	"msrp":          {"suggested retail price", "retail price", "recommended price", "list price"},
	"manager":       {"head", "boss", "supervisor"},
	"ytd sales":     {"year to date sales", "sales this year"},
	"cell number":   {"cell phone", "cell", "mobile phone", "mobile number", "mobile"},
	"mobile number": {"mobile phone", "mobile", "cell phone", "cell number", "cell"},
	"cell phone":    {"cell number", "cell", "mobile phone", "mobile"},
	"home phone":    {"home number", "home phone number"},
	"office phone":  {"office number", "work phone"},
	"lvl":           {"level"},
	"fname":         {"first name"},
	"lname":         {"last name", "surname"},
	"mgr":           {"manager"},
	"yr":            {"year"},
	"cnt":           {"count"},
	"bal":           {"balance"},
	"nm":            {"name"},
	"gnp":           {"gross national product"},
	"gdp":           {"gross domestic product"},
	"hp":            {"horsepower"},
	"dob":           {"date of birth", "birthday", "born"},
	"cell":          {"mobile", "cell phone"},
	"mobile":        {"cell", "cell phone"},
}

// sameEvent are other words for the event a date records ("done_at": the
// tasks completed last week).
var sameEvent = map[string][]string{
	"done": {"completed", "finished"}, "completed": {"done", "finished"}, "finished": {"completed", "done"},
	"closed": {"resolved"}, "resolved": {"closed"}, "shipped": {"sent", "dispatched"}, "hired": {"joined"},
}

// timeSynonyms are the words for the event a time column records.
func timeSynonyms(w []string) []string {
	if hasWord(w, "birth", "born", "dob", "birthday") {
		return []string{"birth date", "date of birth", "born", "birthday", "dob"}
	}
	core := make([]string, 0, len(w))
	for i, x := range w {
		switch x {
		case "date", "datetime", "timestamp", "time", "ts", "dt":
			continue
		case "at", "on", "of":
			if i == len(w)-1 || x == "of" {
				continue
			}
		}
		core = append(core, x)
	}
	var out []string
	switch len(core) {
	case 0:
	case 1:
		if p := participle(core[0]); p != "" {
			out = append(out, p)
			out = append(out, sameEvent[p]...)
			// date_arrived is also the "arrival date": the stems of
			// "arrived date" and "arriving date" agree
			if hasWord(w, "date") {
				out = append(out, p+" date")
			}
		} else if !deniedWords[core[0]] {
			out = append(out, core[0])
		}
	default:
		out = append(out, strings.Join(core, " "))
		if hasWord(w, "date") {
			out = append(out, strings.Join(core, " ")+" date")
		}
		if strings.HasSuffix(last(core), "ed") && !deniedWords[last(core)] {
			out = append(out, last(core)) // account_opened → opened
		}
	}
	if hasWord(w, "date", "datetime", "day", "at", "on", "timestamp") || len(w) == 1 {
		out = append(out, "date")
	}
	return out
}

// stripEntity drops the entity's own name from the front of a column name:
// customer_category of customers → category.
func stripEntity(w []string, e *entity) []string {
	for _, own := range [][]string{strings.Fields(e.label), e.base, e.words, strings.Fields(singularPhrase(e.words))} {
		n := len(own)
		if n == 0 || n >= len(w) {
			continue
		}
		match := true
		for i := 0; i < n; i++ {
			if singular(w[i]) != singular(own[i]) {
				match = false
				break
			}
		}
		if match {
			return w[n:]
		}
	}
	return w
}

// keepSynonyms drops denied single words, phrases that name an entity,
// the names of the entity's other columns, and duplicates.
func (d *drafter) keepSynonyms(e *entity, c *column, syn []string) []string {
	others := map[string]bool{}
	for _, o := range e.cols {
		if o != c {
			others[normPhrase(strings.Join(o.words, " "))] = true
		}
	}
	var out []string
	seen := map[string]bool{}
	for _, s := range syn {
		s = strings.TrimSpace(s)
		n := normPhrase(s)
		switch {
		case s == "", seen[s], strings.Trim(s, "0123456789 ") == "":
			// a number is never a column's name ("1" of line_1)
		case !strings.Contains(s, " ") && (deniedWords[s] || s == strings.ToLower(c.c.Name)):
		case d.entityWords[n], others[n]:
		default:
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

func dedupe(xs []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, x := range xs {
		if x != "" && !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// linkRoles names a table by the role its rows play in a link table: in
// Friend(student_id, friend_id) referring to Highschooler, a highschooler
// is a "student", so "how many students" counts highschoolers, not the
// links. The role word moves from the link's column to the referenced
// table, unless another table is called so.
func (d *drafter) linkRoles() {
	for _, e := range d.ents {
		if !e.link {
			continue
		}
		for _, c := range e.cols {
			role := d.referenceRole(c)
			to := d.byTable[strings.SplitN(c.references, ".", 2)[0]]
			// a noun only: liked_id says what was done, not what the row is
			if role == "" || to == nil || strings.Contains(role, " ") || d.entityWords[normPhrase(role)] ||
				strings.HasSuffix(role, "ed") || irregularPast[role] {
				continue
			}
			c.synonyms = slices.DeleteFunc(c.synonyms, func(s string) bool { return s == role })
			to.synonyms = append(to.synonyms, role, plural(role))
			d.entityWords[normPhrase(role)] = true
		}
	}
}

// referenceRole is what a foreign key's name says the referenced row is to
// this one, without the referenced table's own name and the id suffix
// (manager_id → manager, support_rep_id → support rep); "" when nothing is
// left (customer_id) or the column is no reference.
func (d *drafter) referenceRole(c *column) string {
	if c.references == "" {
		return ""
	}
	w := append([]string{}, c.words...)
	for len(w) > 0 && hasWord([]string{last(w)}, "id", "no", "num", "number", "nr", "key", "fk", "code", "ref") {
		w = w[:len(w)-1]
	}
	if to := d.byTable[c.references[:strings.IndexByte(c.references, '.')]]; to != nil {
		label := strings.Fields(to.label)
		for len(w) > 0 && len(label) > 0 && singular(last(w)) == last(label) {
			w, label = w[:len(w)-1], label[:len(label)-1]
		}
		if len(w) == 0 || strings.Join(w, " ") == to.label {
			return ""
		}
	}
	return strings.Join(w, " ")
}

// hasColumnWord reports whether one of e's columns is named by word.
func hasColumnWord(e *entity, word string) bool {
	for _, c := range e.cols {
		if strings.Join(c.words, " ") == word || singular(strings.Join(c.words, " ")) == word {
			return true
		}
	}
	return false
}
