package timeexpr

import "strings"

// Unit returns the unit of time a word names ("days", "wk", "месяцев"):
// day, week, month, quarter or year; "" when it names none.
func Unit(w string) string {
	switch {
	case w == "day" || w == "days" || w == "d" || strings.HasPrefix(w, "дн") || w == "день" || w == "сутки":
		return "day"
	case w == "week" || w == "weeks" || w == "wk" || w == "wks" || strings.HasPrefix(w, "недел"):
		return "week"
	case w == "month" || w == "months" || w == "mo" || strings.HasPrefix(w, "месяц"):
		return "month"
	case w == "quarter" || w == "quarters" || strings.HasPrefix(w, "квартал"):
		return "quarter"
	case w == "year" || w == "years" || w == "yr" || w == "yrs" || w == "год" || w == "года" || w == "лет" || w == "году":
		return "year"
	}
	return ""
}
