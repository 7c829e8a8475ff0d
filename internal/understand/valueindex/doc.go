// Package valueindex is the bounded index of the values stored in a
// source's columns ("Open", "Tesla, Inc.", "25-OH Vitamin D"): it finds
// them in a question exactly, by part ("Tesla" for "Tesla, Inc.",
// "vitamin D" for three analytes), or despite a typo ("pateints").
//
// Package understand builds one Index per analyzer from the model's
// static values and the database's allowed values (through its Catalog),
// and its linker consults the index at every position of a question while
// it links words to the model. Values are matched by plural-only stems
// (text.ValueStem) and, when written exactly so, by their words as
// written, so that "healed" does not find "healing". The index only
// stores and looks up; which column a value is read as, and whether to
// ask, is decided in package understand.
package valueindex
