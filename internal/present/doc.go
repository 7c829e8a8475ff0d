// Package present writes the values of an answer for people reading a
// terminal: numbers exactly, grouped by thousands, with the same decimals
// down a column; money with its currency; dates as dates and months as
// "Nov 2023"; flags as Yes and No; a missing value as "—" in its place.
//
// It sits at the very end of a turn, after the engine has answered: `clarify
// ask` and `clarify chat` print an answer's rows through it. What a column
// means comes from the answer's column metadata (plan.Column: kind, grain,
// unit); when that is missing — an older answer, a column the compiler
// could not describe — it is read from the column's name, type and values.
package present
