package guard

import (
	"strings"

	"github.com/clarify-sql/clarify/internal/model"
)

// Functions are checked against an allow-list per dialect: aggregates,
// window functions, arithmetic, text and date functions an analytical
// question needs. The deny-lists only give a clearer reason for the
// functions attackers reach for first; anything not allowed is refused.

func set(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// Shared by every dialect.
var commonAllowed = []string{
	"count", "sum", "avg", "min", "max",
	"row_number", "rank", "dense_rank", "percent_rank", "cume_dist", "ntile",
	"lag", "lead", "first_value", "last_value", "nth_value",
	"abs", "round", "ceil", "ceiling", "floor", "sign", "sqrt", "power", "exp", "ln", "log", "log10", "mod", "pi",
	"coalesce", "nullif", "lower", "upper", "length", "substr", "substring", "trim", "ltrim", "rtrim", "replace",
}

// SQLiteFunctions lists the functions the guard allows in SQLite
// statements. The source package's execution authorizer allows at least
// these (a test checks it).
var SQLiteFunctions = set(append([]string{
	"total", "group_concat", "string_agg", "ifnull", "iif", "instr", "trunc", "log2", "pow",
	"date", "time", "datetime", "julianday", "strftime", "unixepoch", "timediff",
	"printf", "format", "char", "unicode", "hex", "typeof", "like", "glob", "likely", "unlikely",
}, commonAllowed...)...)

var sqliteDenied = map[string]string{
	"load_extension":    "loads native code",
	"readfile":          "reads server files",
	"writefile":         "writes server files",
	"edit":              "runs an editor",
	"fts3_tokenizer":    "can run native code",
	"zeroblob":          "allocates unbounded memory",
	"randomblob":        "allocates unbounded memory",
	"sqlite_offset":     "reads storage internals",
	"sqlite_version":    "reveals server details",
	"sqlite_source_id":  "reveals server details",
	"changes":           "reads connection state",
	"total_changes":     "reads connection state",
	"last_insert_rowid": "reads connection state",
}

var pgAllowed = set(append([]string{
	"stddev", "stddev_pop", "stddev_samp", "variance", "var_pop", "var_samp", "bool_and", "bool_or", "every",
	"string_agg", "percentile_cont", "percentile_disc", "mode", "corr", "covar_pop", "covar_samp",
	"regr_slope", "regr_intercept", "regr_r2", "regr_count",
	"trunc", "cbrt", "div", "width_bucket", "greatest", "least", "random",
	"char_length", "character_length", "initcap", "left", "right", "btrim",
	"position", "strpos", "split_part", "concat", "concat_ws", "reverse", "md5",
	"to_char", "to_date", "to_timestamp", "to_number", "date_trunc", "date_part", "extract", "date_bin",
	"age", "make_date", "make_timestamp", "make_interval", "justify_days", "justify_hours", "isfinite",
	"now", "overlay", "regexp_replace", "regexp_match", "timezone",
}, commonAllowed...)...)

var pgDenied = map[string]string{
	"pg_sleep":             "stalls the server",
	"pg_sleep_for":         "stalls the server",
	"pg_sleep_until":       "stalls the server",
	"pg_read_file":         "reads server files",
	"pg_read_binary_file":  "reads server files",
	"pg_ls_dir":            "lists server directories",
	"pg_stat_file":         "reads server files",
	"lo_import":            "reads server files into large objects",
	"lo_export":            "writes server files",
	"lo_get":               "reads large objects",
	"lo_put":               "writes large objects",
	"lo_create":            "writes large objects",
	"lo_unlink":            "writes large objects",
	"lo_from_bytea":        "writes large objects",
	"set_config":           "changes settings",
	"current_setting":      "reads settings, including secrets",
	"pg_terminate_backend": "stops other sessions",
	"pg_cancel_backend":    "stops other sessions",
	"pg_reload_conf":       "changes server configuration",
	"pg_advisory_lock":     "takes locks that outlive the statement",
	"pg_notify":            "signals other sessions",
	"nextval":              "writes sequences",
	"setval":               "writes sequences",
	"query_to_xml":         "runs arbitrary SQL",
	"generate_series":      "generates unbounded rows",
	"version":              "reveals server details",
}

var pgDeniedPrefixes = map[string]string{
	"dblink":          "connects to other databases",
	"pg_ls_":          "lists server directories",
	"pg_read_":        "reads server files",
	"lo_":             "uses large objects",
	"pg_advisory":     "takes locks that outlive the statement",
	"pg_try_advisory": "takes locks that outlive the statement",
	"pg_sleep":        "stalls the server",
	"pg_logical_":     "uses replication",
	"pg_create_":      "changes server state",
	"pg_drop_":        "changes server state",
	"txid_":           "reads transaction internals",
}

var mysqlAllowed = set(append([]string{
	"std", "stddev", "stddev_pop", "stddev_samp", "variance", "var_pop", "var_samp", "group_concat", "any_value",
	"truncate", "pow", "log2", "greatest", "least", "rand", "ifnull", "if", "lcase", "ucase",
	"char_length", "character_length", "substring_index", "left", "right", "lpad", "rpad", "locate", "instr",
	"position", "concat", "concat_ws", "reverse", "md5", "format",
	"date_format", "str_to_date", "date", "year", "month", "day", "dayofmonth", "dayofweek", "dayofyear",
	"weekday", "week", "yearweek", "quarter", "hour", "minute", "second", "datediff", "timestampdiff",
	"timestampadd", "date_add", "date_sub", "adddate", "subdate", "curdate", "current_date", "now",
	"last_day", "makedate", "to_days", "from_days", "unix_timestamp", "from_unixtime", "monthname", "dayname",
	"extract", "cast", "convert",
}, commonAllowed...)...)

var mysqlDenied = map[string]string{
	"sleep":                      "stalls the server",
	"benchmark":                  "stalls the server",
	"get_lock":                   "takes locks that outlive the statement",
	"release_lock":               "releases locks",
	"release_all_locks":          "releases locks",
	"is_free_lock":               "reads lock state",
	"is_used_lock":               "reads lock state",
	"load_file":                  "reads server files",
	"master_pos_wait":            "stalls the server",
	"source_pos_wait":            "stalls the server",
	"wait_for_executed_gtid_set": "stalls the server",
	"user":                       "reveals the connection's account",
	"current_user":               "reveals the connection's account",
	"session_user":               "reveals the connection's account",
	"system_user":                "reveals the connection's account",
	"version":                    "reveals server details",
	"connection_id":              "reveals connection details",
	"found_rows":                 "reads connection state",
	"row_count":                  "reads connection state",
	"last_insert_id":             "reads connection state",
	"sys_exec":                   "runs programs",
	"sys_eval":                   "runs programs",
	"updatexml":                  "leaks data through errors",
	"extractvalue":               "leaks data through errors",
	"name_const":                 "is used to probe the server",
}

// checkFunction refuses a function outside the dialect's allow-list.
func checkFunction(d model.Dialect, name string) error {
	n := strings.ToLower(name)
	var allowed map[string]bool
	var denied map[string]string
	switch d {
	case model.SQLite:
		allowed, denied = SQLiteFunctions, sqliteDenied
	case model.Postgres:
		allowed, denied = pgAllowed, pgDenied
		for p, why := range pgDeniedPrefixes {
			if strings.HasPrefix(n, p) && !allowed[n] {
				return reject("function %s is not allowed: it %s", n, why)
			}
		}
	default:
		allowed, denied = mysqlAllowed, mysqlDenied
	}
	if why, ok := denied[n]; ok {
		return reject("function %s is not allowed: it %s", n, why)
	}
	if !allowed[n] {
		return reject("function %s is not in the guard's list of allowed functions", n)
	}
	return nil
}
