// Package introspect drafts a semantic model by reading a database: what
// `clarify model init --db DSN` writes, and what an evaluation suite gets
// when it points at a database that has no model. It sits before the flow
// of a question: its output is the model YAML that package model loads and
// everything else reads.
//
// Inspect reads the catalog (SQLite pragmas and sqlite_master, PostgreSQL
// pg_catalog limited to the search_path, MySQL information_schema for
// DATABASE()) and bounded statistics: rows counted up to CountLimit, and for
// text and integer columns a distinct count, the longest value and a few
// samples over at most SampleRows rows. Draft turns the Schema into YAML
// that model.Parse accepts and that answers plain questions without edits:
// list X, how many X, X with a stored value, X per column or per related
// table, top N X by a number; and it leaves Clarify to ask when one word
// fits two columns equally well.
//
// # Drafting rules
//
// Tables. One entity per table, named after it; clarify_meta, sqlite_%
// tables and SQLite virtual tables are never drafted. Tables come in name
// order, referenced tables before the tables that reference them.
//
// Keys. The single-column primary key; for a composite key one of its
// columns that is not a foreign key and whose values are all distinct
// today. Without a primary key, a unique NOT NULL column; failing that a
// column named id or <table>_id whose values are all present and distinct.
// A table with none of these (a link table such as film_actor, a log,
// daily_bars(symbol, trade_date)) is an entity without a key, with a note
// saying so: its rows are listed, counted, filtered and aggregated but
// never ranked one by one.
//
// Labels and areas. When table names share first words (sales_, warehouse_)
// and such tables make up at least 60% of the schema with two or more
// prefixes, each prefix is an area (Sales, Warehouse) and is dropped from
// labels; a single prefix shared by every table (wp_) is dropped without
// making an area. The label is the remaining name with its last word made
// singular (categories → category, statuses → status, people → person),
// the plural the table's own plural; two entities that would share a label
// both keep their whole names. Synonyms are the label and plural, the whole
// name when a prefix was dropped, and common variants (customer → client,
// employee → staff member, stock item → product) that name no other entity.
//
// Types. Declared types map to text, integer, real, numeric, date,
// timestamp or boolean; text (or an untyped SQLite column) whose samples
// are all ISO dates is a date or timestamp, and an untyped column takes the
// type of its values. Binary, JSON, array, interval and similar columns are
// left out (and listed in the header).
//
// Roles, in this order:
//   - a foreign key (declared, or a column named <entity>_id of the type of
//     that entity's key when none is declared) → id with references, which
//     becomes a join path; composite foreign keys are not join paths;
//   - a date or timestamp → time;
//   - the key → id, except a short text key (2 to 16 characters) that is
//     not named *_id (a code people type: AAPL, USD), which is a name whose
//     values are matched;
//   - boolean, or an integer holding only 0 and 1 that is named is_*/has_*
//     or like a state (active, deleted), or holds both values in four rows
//     or more under a name that is not a quantity → flag, labelled without
//     is_ (is_manager → manager);
//   - numbers: *_id → id; codes, phone and zip numbers → text; an integer
//     named like a time (epoch seconds) → text; others → measure, with
//     aggregate max for highs and maxima, min for lows and minima, avg for
//     what is not additive (price, rate, ratio, score, rating, age, percent,
//     year, limit, level, size, area…, and unit_*), sum otherwise; a unit
//     suffix (area_cm2, price_usd) becomes the unit and leaves the label;
//   - text: the display column → name; uuid or *_id → id; values longer
//     than 100 characters → text; low cardinality (at most 50 distinct values
//     and at most half the rows, or at most 200 in a table of 10,000 rows or
//     more, or in a table under 20 rows short values that repeat) →
//     dimension; a name-like column (name, title, *_name) → name; others →
//     text. Names and dimensions get values: {source: database}; text is
//     never matched as values.
//
// Display. The first of: name, full_name, title, <entity>_name,
// display_name, another *_name (not first/middle/last/user), last_name,
// first_name, label, any name-like column, the first text column with
// (nearly) one value per row; else the key.
//
// Column synonyms, from the name split at underscores and camelCase:
// the name humanized (first_name → "first name"); the name without the
// entity's own name (customer_category of customers → "category",
// department_name → "name"); the head noun (unit_price → "price",
// total_amount → "amount"), but not after a qualifier (max_salary,
// recommended_retail_price) or a preposition (quantity_on_hand); for time
// columns the event (hire_date → "hired", created_at → "created",
// account_opened → "opened") and "date", for birth dates "born",
// "birthday", "date of birth"; for flags the label; well-known variants
// (last_name → "surname", email → "e-mail"). Words a question uses for
// something else (total, count, number, year, id, value…), words that name
// an entity, and other columns' names in the same entity are never column
// synonyms. A generic word such as "date" or "price" may name several
// columns of one entity: that is meant, Clarify then asks which one.
//
// Time column. The most event-like date of the entity: creation, the
// entity's own date (order_date of orders, loan_date of loans), joined,
// hired…, before due, expected, end or return dates; never birth dates or
// updates. A table with no date whose name extends a referenced table's
// (order_lines → orders) takes that table's time column (orders.order_date).
//
// List columns. The key, the display, then names, dimensions, measures,
// times and flags in table order, then foreign keys; at most eight.
//
// The YAML starts with a comment saying the model was drafted, what to
// review (labels and synonyms, display, roles and aggregates, time columns,
// and what no database can tell: named measures, terms, vague words,
// rankings, scope) and the notes specific to this database: skipped tables
// and columns, keys that are not single-column primary keys, references
// inferred from names.
package introspect
