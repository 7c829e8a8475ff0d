package understand

// The built-in vocabulary: words whose meaning does not depend on the model.
// Phrases are written naturally and stemmed when the lexicon is built.

var countWords = []string{
	"how many", "number of", "count", "count of", "total number of", "the number of", "tally",
	"how much of", "quantity of", // "quantity of" only when no column claims it
	"headcount", "head count",
	"сколько", "количество", "число",
}

// versusWords set two values of one column against each other: "buys vs
// sells" groups by the column they are values of.
var versusWords = []string{"vs", "vs.", "versus", "against", "против"}

// typoTargets are built-in words long and distinct enough to correct a
// typo into: the ones that decide what a question computes.
var typoTargets = []string{"highest", "lowest", "average", "maximum", "minimum", "largest", "smallest",
	"biggest", "latest", "earliest", "newest", "oldest", "between", "greater", "number", "total", "descending",
	"ascending", "alphabetically", "yesterday", "today", "months", "weeks"}

// shadowableCounts are counting phrases that give way to a model column or
// measure named by their head word.
var shadowableCounts = []string{"quantity of"}

var aggWords = map[string][]string{
	"avg": {"average", "avg", "mean", "typical", "средний", "среднее", "средняя", "в среднем"},
	"sum": {"total", "sum", "sum of", "combined", "overall", "add up to", "adds up to", "added up", "in all",
		"суммарный", "сумма", "итого", "общий", "общая"},
	"max": {"highest", "maximum", "max", "peak", "greatest", "максимальный", "максимальная", "наибольший", "самый высокий"},
	"min": {"lowest", "minimum", "min", "least", "минимальный", "минимальная", "наименьший", "самый низкий"},
}

var topWords = []string{"top", "best", "leading", "most popular", "biggest", "best selling", "best-selling", "bestselling", "top selling", "top-selling", "most sold", "лучший", "лучшие", "топ"}

// mostWords rank by a count or measure named after them: "the clinic with
// the most patients".
var mostWords = map[string][]string{
	"max": {"most", "highest number of", "largest number of", "больше всего", "наибольшее число"},
	"min": {"fewest", "least", "lowest number of", "smallest number of", "меньше всего"},
}

// bucketWords group a trend by a period.
var bucketWords = map[string][]string{
	"day":   {"daily", "per day", "each day", "every day", "by day", "day by day", "по дням"},
	"week":  {"weekly", "per week", "each week", "every week", "by week", "week by week", "по неделям"},
	"month": {"monthly", "per month", "each month", "every month", "by month", "month by month", "по месяцам"},
	"year":  {"yearly", "annually", "annual", "per year", "each year", "every year", "by year", "year by year", "по годам"},
}

var bottomWords = []string{"worst", "bottom", "least popular", "худший", "худшие"}

var byWords = []string{"by", "broken down by", "grouped by", "group by", "split by", "in terms of", "по"}

var perWords = []string{"per", "for each", "for every", "each", "by each", "для каждого", "на каждый", "в разбивке по"}

var notWords = []string{"not", "no", "non", "without", "excluding", "except", "other than", "never", "nobody", "no one",
	"none", "nothing", "outside", "outside of", "apart from", "besides", "не", "без", "кроме"}

var cmpWords = map[string][]string{
	">":       {"over", "above", "more than", "greater than", "higher than", "larger than", "bigger than", "longer than", "heavier than", "older than", "taller than", "richer than", "faster than", "wider than", "costlier than", "pricier than", "later than", "exceeding", "exceeds", "exceed", "in excess of", "больше", "более", "свыше", "выше", "больше чем"},
	">=":      {"at least", "minimum of", "or more", "не менее", "не меньше"},
	"<=":      {"at most", "no more than", "up to", "maximum of", "or less", "не более", "не больше"},
	"<":       {"under", "below", "less than", "fewer than", "lower than", "smaller than", "shorter than", "lighter than", "younger than", "cheaper than", "poorer than", "slower than", "narrower than", "earlier than", "меньше", "менее", "ниже", "меньше чем"},
	"=":       {"equal to", "equals", "exactly", "равно", "ровно"},
	"between": {"between", "from", "in the range", "ranging from", "между", "от"},
}

var trendWords = []string{"trend", "trends", "trending", "over time", "time series", "evolution", "trajectory", "progression", "timeline", "динамика", "тренд", "по времени"}

var latestWords = []string{"latest", "most recent", "newest", "current", "last", "up to date", "most up to date", "последний", "последняя", "последнее", "свежий"}

var earliestWords = []string{"earliest", "first", "oldest", "первый", "самый ранний"}

var ascWords = []string{"ascending", "lowest first", "smallest first", "oldest first", "earliest first", "newest last", "latest last", "most recent last", "по возрастанию"}

var descWords = []string{"descending", "highest first", "largest first", "newest first", "latest first", "most recent first", "oldest last", "earliest last", "по убыванию"}

// alphaWords sort by the rows' names, A to Z.
var alphaWords = []string{"alphabetically", "alphabetical", "in alphabetical order", "a to z", "a-z", "по алфавиту"}

var orderWords = []string{"sorted by", "sort by", "order by", "ordered by", "ranked by", "sorted", "отсортировать по"}

var plotWords = []string{"plot", "chart", "graph", "visualize", "visualise", "draw", "line chart", "bar chart", "график", "графиком", "диаграмма", "построй", "нарисуй"}

var tableWords = []string{"table", "tabular", "as a table", "in a table", "spreadsheet", "таблица", "таблицей", "таблицу", "в виде таблицы"}

var historyWords = []string{"history", "all", "over time", "trend", "changes", "all time", "historical", "every", "история", "историю", "динамика", "все", "всё"}

// genericWords name data in general without naming an entity.
var genericWords = []string{"data", "info", "information", "records", "record", "rows", "row", "entries", "entry",
	"people", "persons", "folks", "individuals", "everyone", "everybody", "anyone", "anybody", "someone", "somebody",
	"details", "detail", "stuff", "everything", "things", "thing", "values", "numbers", "figures", "stats",
	"statistics", "database", "table contents", "events", "event", "cases", "instances", "occurrences", "situations",
	"данные", "информация", "записи"}

// metaWords are about the question or the answer's form, not the data:
// "in this table", "the corresponding names", "each distinct value", and
// what is left of contractions ("I'll", "we've"). They are ignored.
var metaWords = []string{"table", "tables", "database", "databases", "schema", "column", "columns", "field", "fields",
	"distinct", "unique", "different", "corresponding", "respective", "respectively", "along", "alongside", "together",
	"sure", "ll", "ve", "re", "d", "s", "m", "hello", "hey", "hi", "thanks", "thank", "please", "kindly", "okay", "ok",
	"great", "cool", "awesome", "perfect", "fine", "good", "nice", "alright", "yes", "yeah", "no", "nope", "maybe",
	"question", "questions", "query", "answer", "result", "results", "output", "request", "straightforward", "simple",
	"quick", "briefly", "exactly", "specifically", "particular", "particularly", "certain", "given", "provided",
	"mentioned", "above", "following", "said", "respectively", "currently", "existing", "available", "overall",
	"also", "too", "again", "first", "start", "ask", "wondering", "wonder", "curious", "need", "want", "know"}

// listWords ask to see rows; they carry no meaning beyond "list".
var listWords = []string{"show", "list", "display", "give", "get", "find", "see", "view", "tell", "fetch",
	"pull", "return", "bring", "look", "search", "retrieve", "report", "print", "output", "provide", "lookup", "put", "present",
	"which", "what", "who", "whose", "whom", "where",
	"покажи", "покажите", "показать", "выведи", "выведите", "дай", "дайте", "найди", "найдите", "какой", "какие", "какая", "кто"}

// stopWords are fillers with no meaning for a query.
var stopWords = []string{
	"a", "an", "the", "of", "in", "on", "at", "to", "for", "with", "from", "into", "onto", "about", "across",
	"among", "through", "during", "via", "within", "as", "than", "and", "or", "but", "so", "if", "then",
	"me", "i", "we", "us", "you", "they", "them", "it", "its", "he", "she", "his", "her", "him", "their", "theirs",
	"our", "ours", "your", "yours", "my", "mine", "myself", "ourselves",
	"is", "are", "was", "were", "be", "been", "being", "am", "do", "does", "did", "done", "doing", "have", "has",
	"had", "having", "get", "got", "gets", "getting", "go", "goes", "went", "make", "made", "making",
	"can", "could", "would", "should", "will", "shall", "may", "might", "must", "need", "needs", "want", "wants",
	"like", "please", "kindly", "thanks", "thank", "hi", "hello", "hey", "okay", "ok",
	"pls", "plz", "possible", "if possible", "able", "be able to", "wondering", "wonder", "curious", "mind",
	"find out", "figure out", "interested", "help", "quick", "quickly", "greetings", "cheers",
	// verbs that relate two things and say no condition of their own: the
	// value after them does ("courses taught by Nikolai Kowalski")
	"look after", "looks after", "looking after", "looked after", "take care of", "takes care of", "in charge of",
	"responsible for",
	"taught", "teach", "teaches", "assigned", "managed", "manages", "owned", "owns", "written", "wrote",
	"authored", "driven", "drove", "drives", "supervised", "treated", "attended", "visited", "worked",
	"works", "belonging", "associated", "related", "linked", "responsible", "live", "lives", "living",
	"used", "using", "earning", "earns", "dr", "mr", "mrs", "prof",
	"this", "that", "these", "those", "there", "here", "any", "some", "such", "both", "either", "neither",
	"also", "just", "only", "even", "still", "already", "ever", "really", "actually", "currently", "presently",
	"right", "now", "at the moment", "so far", "to date", "altogether", "in total", "whole", "entire",
	"much", "many", "lot", "lots", "bunch", "couple", "several", "various", "different", "other",
	"how", "when", "why", "whether", "which", "what", "who", "whom", "whose", "where",
	"exist", "exists", "existing", "available", "known", "recorded", "registered", "stored", "listed", "placed",
	"happened", "occurred", "logged", "entered", "tracked", "kept", "held", "included", "contained", "present",
	"currently", "one", "ones", "someone", "something", "anything", "each of", "every one",
	"i'd", "id", "let", "lets", "know", "tell me", "show me", "give me", "i want", "i need", "can you", "could you",
	"would you", "please show", "list of", "a list of", "the list of", "set", "group of", "kind", "kinds", "sort",
	"type of", "sorts", "amount", "level", "levels", "value", "result", "results", "much", "up", "out", "off",
	"all", "overall", "separately", "group", "groups", "selling", "sold", "bought", "purchased", "made", "done",
	// linking verbs and adverbs that carry no condition of their own
	"break", "down", "yet", "take", "took", "taken", "takes", "generate", "generated", "generates", "belong", "belongs",
	"belonged", "located", "based", "situated", "bring", "brings", "brought", "produce", "produced", "record",
	"occur", "occurs", "happen", "happens", "contain", "contains", "include", "includes", "involve", "involved",
	"receive", "received", "receives", "got", "see", "seen", "appear", "appears", "exist", "currently", "ago", "ever",
	"still", "please", "thanks", "just", "also", "again", "far", "recorded", "registered", "logged", "entered",
	"look", "like", "looks", "show", "shown", "give", "given", "list", "listed", "total", "totals",
	"come", "came", "coming", "comes", "went", "gone", "expected", "expect", "issued", "issue", "sent", "raised", "performed", "conducted", "carried", "completed", "processed", "filed",
	"handled", "booked", "logged", "full", "complete", "entire", "reached", "hit", "achieved", "saw", "seen", "happened",
	// words about the data as a whole, and adverbs that add nothing
	"directly", "in our catalog", "in our catalogue", "in the catalog", "in the catalogue", "our catalog", "catalog",
	"catalogue", "with the company", "for the company", "at the company", "in the company", "on the payroll",
	"on payroll", "compare", "comparing", "ppl", "folks", "money",
	"раз", "сдавал", "сдавала", "сдавали", "сдал", "сдала", "был", "была", "было", "были", "есть", "всего", "мне", "нам", "respectively", "etc", "in the", "into", "together",
	"и", "в", "во", "на", "за", "с", "со", "у", "о", "об", "от", "до", "для", "из", "к", "по", "мне", "меня",
	"пожалуйста", "это", "эти", "этот", "есть", "был", "были", "было", "какие", "мои", "мой", "моя", "моё",
}
