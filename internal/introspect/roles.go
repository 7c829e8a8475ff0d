package introspect

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/units"
)

var (
	dateValue      = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)
	timestampValue = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}(:?\d{2})?)?$`)
	integerValue   = regexp.MustCompile(`^-?\d+$`)
	realValue      = regexp.MustCompile(`^-?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$`)
)

// effectiveKind is a column's type family with the samples' say: text
// holding ISO dates is a date or timestamp, and a SQLite column declared
// without a type takes the family of its values.
func effectiveKind(c *Column) Kind {
	switch c.Kind {
	case KindText:
		if k := dateKind(c.Samples); k != "" {
			return k
		}
		if len(c.Samples) == 0 && timeNamed(splitName(c.Name)) {
			return KindDate
		}
	case KindUnknown:
		if k := dateKind(c.Samples); k != "" {
			return k
		}
		if len(c.Samples) > 0 && all(c.Samples, integerValue.MatchString) {
			return KindInteger
		}
		if len(c.Samples) > 0 && all(c.Samples, realValue.MatchString) {
			return KindReal
		}
		return KindText
	}
	return c.Kind
}

// dateKind says whether every sample is an ISO date or timestamp.
func dateKind(samples []string) Kind {
	if len(samples) == 0 {
		return ""
	}
	k := KindDate
	for _, s := range samples {
		switch {
		case dateValue.MatchString(s):
		case timestampValue.MatchString(s):
			k = KindTimestamp
		default:
			return ""
		}
	}
	return k
}

func all(xs []string, f func(string) bool) bool {
	for _, x := range xs {
		if !f(x) {
			return false
		}
	}
	return true
}

func last(w []string) string {
	if len(w) == 0 {
		return ""
	}
	return w[len(w)-1]
}

func hasWord(w []string, set ...string) bool {
	for _, x := range w {
		for _, s := range set {
			if x == s {
				return true
			}
		}
	}
	return false
}

// timeNamed reports whether a name says it holds a date: *_date, *_at,
// *_on, date_of_*, *_time, *_timestamp, created, updated.
func timeNamed(w []string) bool {
	if len(w) == 0 {
		return false
	}
	switch last(w) {
	case "date", "datetime", "timestamp", "time", "ts", "dt":
		return true
	case "at", "on":
		return len(w) > 1
	case "created", "updated", "modified":
		return true
	}
	return w[0] == "date" && len(w) > 2 && w[1] == "of"
}

// flagWords name a boolean column on their own ("active", "deleted").
var flagWords = map[string]bool{
	"active": true, "enabled": true, "disabled": true, "deleted": true, "archived": true, "verified": true,
	"approved": true, "paid": true, "published": true, "visible": true, "hidden": true, "locked": true,
	"blocked": true, "cancelled": true, "canceled": true, "completed": true, "done": true, "discontinued": true,
	"finalized": true, "confirmed": true, "default": true, "primary": true, "public": true, "private": true,
	"infected": true, "flag": true, "flagged": true, "subscribed": true, "available": true,
}

// flagNamed reports whether a name says the column is true or false.
func flagNamed(w []string) bool {
	if len(w) == 0 {
		return false
	}
	switch w[0] {
	case "is", "has", "can", "was", "should", "allow", "allows", "needs", "uses", "in":
		return len(w) > 1 && !(w[0] == "in" && len(w) > 2)
	}
	return len(w) == 1 && flagWords[w[0]] || last(w) == "flag"
}

// secretWords name columns that hold credentials or personal identifiers
// nobody should read through Clarify: they are never drafted, so no
// question can show them and their values are never loaded.
var secretWords = wordSet(`password passwd pwd passcode passphrase hash hashed salt secret secrets token tokens
	apikey otp cvv cvc ssn`)

// secretNamed reports whether a column's name says it holds a secret:
// password, password_hash, salt, api_key, auth_token, ssn, card_number…
func secretNamed(w []string) bool {
	if hasWordIn(w, secretWords) {
		return true
	}
	joined := " " + strings.Join(w, " ") + " "
	for _, p := range []string{" api key ", " private key ", " secret key ", " access key ", " social security ",
		" card number ", " credit card ", " cc number "} {
		if strings.Contains(joined, p) {
			return true
		}
	}
	return false
}

func hasWordIn(w []string, set map[string]bool) bool {
	for _, x := range w {
		if set[x] {
			return true
		}
	}
	return false
}

// measureNamed are words that say a number is a quantity, never a flag.
var measureNamed = []string{"quantity", "qty", "count", "amount", "total", "number", "num", "price", "cost",
	"sum", "balance", "score", "rating", "level", "stock", "units"}

// isFlag reports whether an integer column holds a yes/no: only 0 and 1
// with a flag-like name, or both 0 and 1 in a table of four rows or more
// and a name that is not a quantity.
func isFlag(c *column, rows int64) bool {
	if c.kind != KindInteger {
		return false
	}
	binary := c.c.Distinct >= 1 && c.c.Min >= 0 && c.c.Max <= 1
	if c.c.Kind != KindInteger { // an untyped SQLite column: no range was measured
		binary = c.c.Distinct >= 1 && c.c.Distinct <= 2 && all(c.c.Samples, func(s string) bool { return s == "0" || s == "1" })
	}
	if flagNamed(c.words) {
		return binary || c.c.Distinct == 0
	}
	return binary && c.c.Distinct == 2 && rows >= 4 && !hasWord(c.words, measureNamed...)
}

// idNamed reports whether a name says the column identifies something.
func idNamed(w []string) bool {
	switch last(w) {
	case "id", "uuid", "guid", "key", "fk", "pk", "ref":
		return true
	}
	return false
}

// codeNamed are numbers that are labels, not quantities.
func codeNamed(w []string) bool {
	switch last(w) {
	case "zip", "zipcode", "postcode", "phone", "fax", "mobile", "number", "no", "nr", "code", "sku", "ean", "upc", "isbn":
		return !hasWord(w, "of") // number_of_pages is a quantity
	}
	return hasWord(w, "zip", "postal", "phone")
}

// nameNamed reports whether a name says the column names a row.
func nameNamed(w []string) bool {
	switch {
	case len(w) == 1:
		switch w[0] {
		case "name", "title", "label", "fullname", "username", "nickname", "caption", "heading", "surname", "firstname", "lastname",
			"fname", "lname":
			return true
		}
	case last(w) == "name":
		return true
	case last(w) == "fname" || last(w) == "lname":
		return true // au_fname, emp_lname
	}
	return false
}

// lowCardinality: at most 50 distinct values and at most half the rows, or
// at most 200 in a table of 10,000 rows or more, or in a table of fewer
// than 20 rows short values that repeat — a column people filter and group
// by, whose values are worth matching in questions.
func lowCardinality(c *Column, t *Table) bool {
	d, n := c.Distinct, t.Sampled
	switch {
	case d < 1:
		return false
	case d <= 50 && 2*d <= n, n >= 10_000 && d <= 200:
		return true
	}
	// a small table: short values that repeat (gender in a table of three)
	return n < 20 && d < n && c.MaxLen <= 30
}

// longText is free text (descriptions, notes): never a dimension.
const longText = 100

// longName is the longest value of a column named name or title that is
// still matched as a name: titles of books and films run long.
const longName = 300

// display picks the column that names a row to a person.
func (d *drafter) display(e *entity) {
	var texts []*column
	for _, c := range e.cols {
		// a title may be long (a book's), other long text is free text
		if c.kind == KindText && c.references == "" && (c.c.MaxLen <= longText || nameNamed(c.words) && c.c.MaxLen <= longName) && !idNamed(c.words) {
			texts = append(texts, c)
		}
	}
	find := func(match func(c *column) bool) string {
		for _, c := range texts {
			if match(c) {
				return c.c.Name
			}
		}
		return ""
	}
	is := func(names ...string) func(c *column) bool {
		return func(c *column) bool {
			h := strings.Join(c.words, " ")
			for _, n := range names {
				if h == n {
					return true
				}
			}
			return false
		}
	}
	own := []string{e.label + " name", strings.Join(e.base, " ") + " name", singularPhrase(e.words) + " name"}
	lastName, firstName := is("last name", "lastname", "surname"), is("first name", "firstname")
	person := find(lastName) != "" && find(firstName) != ""
	tries := []func(c *column) bool{
		is("name"), is("full name", "fullname"), is(own...), is("display name"),
		// a person's title is a job title: first and last names name people
		func(c *column) bool { return person && lastName(c) },
		is("title"),
		func(c *column) bool {
			return last(c.words) == "name" && !hasWord(c.words, "first", "middle", "last", "user", "contact")
		},
		lastName, firstName, is("label"),
		func(c *column) bool { return nameNamed(c.words) },
		func(c *column) bool {
			// the first text column with (nearly) one value per row
			n := e.t.Sampled
			return c.c.Name != e.key && n > 0 && c.c.Distinct*10 >= n*9
		},
	}
	for _, try := range tries {
		if name := find(try); name != "" {
			e.display = name
			return
		}
	}
	e.display = e.key
}

// roles sets each column's role, type, aggregate, unit and values.
func (d *drafter) roles(e *entity) {
	t := e.t
	for _, c := range e.cols {
		c.typ = typeName(c.kind)
		isKey := c.c.Name == e.key
		switch {
		case c.references != "":
			c.role = model.RoleID
		case c.kind == KindDate || c.kind == KindTimestamp:
			c.role = model.RoleTime
		case isKey && c.kind == KindText && c.c.MaxLen >= 2 && (!idNamed(c.words) && c.c.MaxLen <= 16 || codeValues(c.c)):
			// a short code people type ("AAPL", "USD"): match its values;
			// single letters would match "a" and "I" in every question
			c.role, c.values = model.RoleName, true
		case isKey:
			c.role = model.RoleID
		case c.kind == KindBoolean:
			c.role = model.RoleFlag
		case c.kind == KindText && textFlag(c) != nil:
			// 'Y'/'N', 'yes'/'no', '1'/'0' stored as text
			c.role = model.RoleFlag
			c.trueValue, c.falseValue = textFlag(c)[0], textFlag(c)[1]
		case yearsHeld(c):
			// birth_year, open_year: calendar years a period compares
			// ("born before 1945"), grouped by, never summed
			c.role, c.grain = model.RoleDimension, model.GrainYear
		case c.kind == KindInteger && timeNamed(c.words):
			c.role = model.RoleText
			d.note(fmt.Sprintf("%s.%s: named like a time but holds integers (epoch seconds?): left as text", e.name, c.c.Name))
		case isFlag(c, t.Rows):
			c.role = model.RoleFlag
		case c.kind == KindInteger || c.kind == KindReal || c.kind == KindNumeric:
			d.number(c)
		default:
			d.text(e, c)
		}
		if c.role == model.RoleFlag {
			c.label = flagLabel(c.words)
		}
	}
}

// yearsHeld reports whether a number or text column holds calendar
// years: named with "year" (not "years", a duration) and, when the
// sample was read, its median a year between 1000 and 2999 and no value
// past 2999 (a school year 1 to 12 is not a calendar year).
func yearsHeld(c *column) bool {
	if !hasWord(c.words, "year", "yr") || hasWord(c.words, "id", "code", "key") {
		return false
	}
	isYear := func(v float64) bool { return v >= 1000 && v <= 2999 && v == float64(int64(v)) }
	switch c.kind {
	case KindInteger, KindReal, KindNumeric:
		// most values modern years, none in the future's far side; a few
		// BC years (negative) are years too
		if q := c.c.Quantiles; len(q) > 0 {
			return isYear(q[len(q)/2]) && q[0] >= -9999 && q[len(q)-1] <= 2999
		}
		return c.c.Min == 0 && c.c.Max == 0 || isYear(float64(c.c.Min)) && isYear(float64(c.c.Max))
	case KindText:
		if len(c.c.Samples) == 0 {
			return false
		}
		for _, s := range c.c.Samples {
			v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
			if err != nil || !isYear(v) {
				return false
			}
		}
		return true
	}
	return false
}

// number sets the role of a numeric column: identifiers and codes are ids
// and text, everything else a measure with a default aggregate.
func (d *drafter) number(c *column) {
	switch {
	case idNamed(c.words):
		c.role = model.RoleID
	case codeNamed(c.words):
		c.role = model.RoleText
	default:
		c.role = model.RoleMeasure
		words := c.words
		if u, ok := unitNames[last(words)]; ok && len(words) > 1 {
			c.unit = u
			if strings.ToLower(u) != last(words) {
				c.unitWords = []string{last(words)}
			}
			words = words[:len(words)-1]
			c.label = strings.Join(words, " ")
		} else if u, ok := unitNames[last(words)]; ok && timeUnits[u] {
			// a column named for its unit alone (Milliseconds) holds a
			// duration in that unit
			c.unit = u
		}
		q := c.c.Quantiles
		switch {
		case (c.unit == "%" || c.unit == "" && hasWord(words, "discount", "percent", "percentage", "ratio")) && len(q) > 0 && q[len(q)-1] <= 1 && q[0] >= 0:
			// commission_pct or a discount holding 0.3 for 30%: "30%" is
			// compared as 0.3
			c.unit = units.Fraction
			c.unitWords = nil
		case c.unit == "" && hasWord(words, "runtime") || strings.Join(words, " ") == "running time":
			// a film's runtime is in minutes when its values say so
			if len(q) > 0 && q[len(q)/2] >= 30 && q[len(q)/2] <= 300 {
				c.unit = "minutes"
			}
		}
		c.aggregate = aggregateOf(words, c.unit)
	}
}

// timeUnits are the units of durations: their columns are called a
// duration or a length by the people who ask about them.
var timeUnits = map[string]bool{"ms": true, "seconds": true, "minutes": true, "hours": true, "days": true, "weeks": true}

// text sets the role of a text column.
func (d *drafter) text(e *entity, c *column) {
	low := lowCardinality(c.c, e.t)
	switch {
	case c.c.Name == e.display:
		c.role, c.values = model.RoleName, true
	case c.kind == KindUUID || idNamed(c.words):
		c.role = model.RoleID
	case c.c.MaxLen > longText && !(nameNamed(c.words) && c.c.MaxLen <= longName), contactNamed(c.words):
		c.role = model.RoleText
	case nameNamed(c.words):
		// names (first_name, product_name) name rows, however few
		c.role, c.values = model.RoleName, true
	case low, placeNamed(c.words) && c.c.MaxLen <= shortText:
		c.role, c.values = model.RoleDimension, true
	case repeatedShort(c.c, e.t):
		// a city or a country in a big table: too many values to call
		// the column low-cardinality, but values that repeat are what
		// questions filter on ("customers in Paris")
		c.role, c.values = model.RoleDimension, true
	default:
		c.role = model.RoleText
	}
}

// flagPairs are the true and false values of flags stored as text.
var flagPairs = [][2]string{{"y", "n"}, {"yes", "no"}, {"t", "f"}, {"true", "false"}, {"1", "0"}}

// textFlag returns the stored true and false values of a text column that
// holds only a yes/no pair (in the case the data uses), or nil.
func textFlag(c *column) []string {
	if c.c.Distinct < 1 || c.c.Distinct > 2 || len(c.c.Samples) == 0 {
		return nil
	}
	for _, p := range flagPairs {
		var t, f string
		ok := true
		for _, s := range c.c.Samples {
			switch strings.ToLower(s) {
			case p[0]:
				t = s
			case p[1]:
				f = s
			default:
				ok = false
			}
		}
		if !ok {
			continue
		}
		// a value the data lacks takes the case of the one it has
		upper := t != "" && t == strings.ToUpper(t) || f != "" && f == strings.ToUpper(f)
		if t == "" {
			t = map[bool]string{true: strings.ToUpper(p[0]), false: p[0]}[upper]
		}
		if f == "" {
			f = map[bool]string{true: strings.ToUpper(p[1]), false: p[1]}[upper]
		}
		return []string{t, f}
	}
	return nil
}

// codeValues reports whether a text column holds short upper-case codes
// people type (UK, IT_PROG, SA_REP), whatever its name.
func codeValues(c *Column) bool {
	if c.MaxLen > 10 || len(c.Samples) == 0 {
		return false
	}
	for _, s := range c.Samples {
		if strings.ToUpper(s) != s || !strings.ContainsAny(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") {
			return false
		}
	}
	return true
}

// placeNamed reports whether a column names a place: its values are what
// questions filter on ("in Seattle", "from Canada"), however many there are.
func placeNamed(w []string) bool {
	return hasWord(w, "city", "town", "country", "state", "province", "region", "county", "territory", "continent",
		"district", "nationality", "citizenship")
}

// contactNamed reports whether a column holds a way to reach someone or
// part of an address: its values are read, never matched in questions.
func contactNamed(w []string) bool {
	return hasWord(w, "phone", "fax", "mobile", "email", "mail", "url", "website", "web", "address", "street", "line1",
		"line2", "addressline1", "addressline2", "zip", "zipcode", "postal", "postcode", "extension", "ext", "ip", "password", "comment", "comments",
		"note", "notes", "description", "desc", "remarks")
}

// repeatedShort reports whether a text column holds short values that
// repeat: at least one value in ten is a repeat, or several rows share a
// value in a small table.
func repeatedShort(c *Column, t *Table) bool {
	n := t.Sampled
	if c.Distinct < 1 || n == 0 {
		return false
	}
	// categories spelled out ("Constitutional Monarchy", "US Territory")
	// run longer, and repeat: each value three times or more on average
	return c.MaxLen <= shortText && c.Distinct*10 <= n*9 || c.MaxLen <= repeatedText && c.Distinct*3 <= n
}

// repeatedText is the longest value of a column matched as a dimension
// because its values repeat.
const repeatedText = 80

// shortText is the longest value of a column matched as a dimension
// although it has many distinct values.
const shortText = 40

// unitNames are name suffixes that carry a measure's unit (area_cm2).
var unitNames = map[string]string{
	"cm2": "cm²", "m2": "m²", "km2": "km²", "cm": "cm", "mm": "mm", "km": "km", "kg": "kg", "mg": "mg",
	"usd": "USD", "eur": "EUR", "gbp": "GBP", "pct": "%", "percent": "%", "days": "days", "hours": "hours",
	"minutes": "minutes", "mins": "minutes", "min": "minutes", "seconds": "seconds", "secs": "seconds", "sec": "seconds",
	"ms": "ms", "millis": "ms", "msec": "ms", "milliseconds": "ms", "hrs": "hours", "hr": "hours", "weeks": "weeks",
	"bytes": "bytes", "kb": "KB", "mb": "MB", "gb": "GB", "lbs": "lb", "lb": "lb",
	"liters": "l", "litres": "l", "l": "l", "ml": "ml", "gallons": "gal", "gal": "gal", "kwh": "kWh",
	"miles": "mi", "mi": "mi", "meters": "m", "metres": "m", "m": "m", "g": "g", "grams": "g", "tons": "t",
	"kilometers": "km", "kilometres": "km", "mph": "mph", "kmh": "km/h",
}

// avgWords name numbers that are not additive: their total means nothing,
// their average does (prices, rates, scores, ages, percentages, sizes).
var avgWords = []string{"price", "prices", "rate", "ratio", "score", "rating", "age", "percent", "percentage",
	"pct", "margin", "temperature", "temp", "avg", "average", "mean", "median", "lat", "latitude", "lon", "lng",
	"longitude", "year", "limit", "level", "grade", "height", "width", "depth", "size", "area", "stars", "probability",
	"length", "duration", "runtime", "weight", "mass", "salary", "wage", "wages", "pay", "income", "speed", "time",
	"bytes", "milliseconds", "seconds", "minutes", "hours", "msrp", "popularity", "gpa", "pages", "discount"}

// aggregateOf is a measure's default aggregate: max for highs and maxima,
// min for lows and minima, avg for what is not additive, sum otherwise.
func aggregateOf(w []string, unit string) string {
	switch {
	case hasWord(w, "high", "highest", "max", "maximum", "peak", "upper"):
		return "max"
	case hasWord(w, "low", "lowest", "min", "minimum", "lower"):
		return "min"
	case hasWord(w, avgWords...), len(w) > 1 && w[0] == "unit", unit == "%", timeUnits[unit]:
		return "avg"
	}
	return "sum"
}

func typeName(k Kind) string {
	switch k {
	case KindInteger:
		return "integer"
	case KindReal:
		return "real"
	case KindNumeric:
		return "numeric"
	case KindDate:
		return "date"
	case KindTimestamp:
		return "timestamp"
	case KindBoolean:
		return "boolean"
	}
	return "text"
}

// flagLabel is what a flag means when true: is_manager → manager.
func flagLabel(w []string) string {
	if len(w) > 1 {
		switch w[0] {
		case "is", "was", "in":
			return strings.Join(w[1:], " ")
		}
	}
	if last(w) == "flag" && len(w) > 1 {
		return strings.Join(w[:len(w)-1], " ")
	}
	return ""
}

// timeScore ranks how well a date column dates its row as an event: the
// creation or the entity's own date first, plans and ends after, birth
// dates and updates never (0).
func timeScore(e *entity, c *column) int {
	w := c.words
	switch {
	case hasWord(w, "birth", "born", "dob", "birthday", "death", "expiry", "expiration", "expires"):
		return 0
	case hasWord(w, "updated", "modified", "changed", "deleted", "synced", "archived") ||
		w[0] == "last" || w[0] == "next":
		return 0
	case hasWord(w, "expected", "due", "planned", "scheduled", "end", "ended", "until", "closed", "healed",
		"returned", "return", "resolved", "completed", "finished", "shipped", "delivered", "cancelled", "canceled", "to"):
		return 2
	case strings.Join(w, " ") == "date" || strings.Join(w, " ") == "timestamp" ||
		hasWord(w, "created", "creation", "placed", "ordered", "opened", "registered", "joined", "start",
			"started", "begin", "occurred", "happened", "recorded", "logged", "event", "transaction", "issued",
			"submitted", "posted", "hire", "hired", "signup", "enrolled", "admitted", "booked", "sent"):
		return 4
	}
	label := strings.Fields(e.label)
	if len(label) > 0 && len(w) > len(label) && strings.Join(w[:len(label)], " ") == e.label {
		return 4 // order_date of orders, loan_date of loans
	}
	if len(label) > 0 && hasWord(w, last(label)) {
		return 4
	}
	return 3
}

// ownTimeColumn is the entity's most event-like date column, or "".
func ownTimeColumn(e *entity) string {
	best, score := "", 0
	for _, c := range e.cols {
		if c.role != model.RoleTime {
			continue
		}
		if s := timeScore(e, c); s > score {
			best, score = c.c.Name, s
		}
	}
	return best
}

// inheritedTimeColumn dates the rows of a part by its whole: order_lines
// take orders.order_date when they reference orders and have no date of
// their own. Only a table whose name extends the parent's qualifies.
func (d *drafter) inheritedTimeColumn(e *entity) string {
	for _, c := range e.cols {
		if c.references == "" {
			continue
		}
		to := d.byTable[c.references[:strings.IndexByte(c.references, '.')]]
		if to == nil || to == e || to.timeColumn == "" || strings.Contains(to.timeColumn, ".") {
			continue
		}
		pl := strings.Fields(to.label)
		if len(e.base) > len(pl) && singularPhrase(e.base[:len(pl)]) == to.label {
			return to.name + "." + to.timeColumn
		}
	}
	return ""
}

// listColumns are shown when rows are listed: the key, the display, the
// names, dimensions, measures, times and flags in table order, then the
// references; at most eight.
func listColumns(e *entity) []string {
	var out []string
	add := func(name string) {
		if name != "" && len(out) < 8 && !contains(out, name) {
			out = append(out, name)
		}
	}
	add(e.key)
	add(e.display)
	// a full name shown, its halves are not
	shown := map[*column]bool{}
	if d := e.byName[e.display]; d != nil {
		for _, p := range d.parts {
			shown[p] = true
		}
	}
	for _, c := range e.cols {
		switch c.role {
		case model.RoleName, model.RoleDimension, model.RoleMeasure, model.RoleTime, model.RoleFlag:
			if !shown[c] {
				add(c.c.Name)
			}
		}
	}
	for _, c := range e.cols {
		if c.references != "" {
			add(c.c.Name)
		}
	}
	return out
}
