#!/usr/bin/env python3
"""Dialect converters used by build.sh.  Each sub-command reads SQL from
stdin (or the files named) and writes SQL that MariaDB accepts to stdout.
Python 3 standard library only.

  strip-db [--qualifier P ...]   MySQL dump: drop CREATE/DROP DATABASE and USE
                                 lines, drop "P" qualifiers after TABLE/INTO/
                                 REFERENCES (e.g. movies.dbo., movies.)
  create-tables                  keep only the CREATE TABLE statements
  rename-tables OLD=NEW,...      rename tables in INSERT INTO `OLD` headers
  bikestores-ddl / bikestores-data   SQL Server BikeStores scripts
  pubs                           SQL Server instpubs.sql (bytes on stdin)
  oracle-hr CREATE POPULATE      Oracle HR hr_create.sql + hr_populate.sql
  table-order                    print the CREATE TABLE names, in order,
                                 comma-separated (first creation wins)
"""
import re
import sys

# ---------------------------------------------------------------- helpers


def split_statements(text, sep=";"):
    """Split on `sep` outside single-quoted strings and comments."""
    out, buf, i, n = [], [], 0, len(text)
    in_str = False
    while i < n:
        ch = text[i]
        if in_str:
            buf.append(ch)
            if ch == "'":
                if i + 1 < n and text[i + 1] == "'":
                    buf.append("'")
                    i += 1
                else:
                    in_str = False
        elif ch == "'":
            in_str = True
            buf.append(ch)
        elif text.startswith("--", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
            continue
        elif text.startswith("/*", i):
            j = text.find("*/", i)
            i = n if j < 0 else j + 2
            continue
        elif ch == sep:
            out.append("".join(buf).strip())
            buf = []
        else:
            buf.append(ch)
        i += 1
    if "".join(buf).strip():
        out.append("".join(buf).strip())
    return [s for s in out if s]


def tokens(text):
    """Tokens of a DDL fragment: words, 'strings', (balanced groups), others."""
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch.isspace():
            i += 1
        elif ch == "'":
            j = i + 1
            while True:
                j = text.index("'", j)
                if j + 1 < n and text[j + 1] == "'":
                    j += 2
                    continue
                break
            yield text[i:j + 1]
            i = j + 1
        elif ch == "(":
            depth, j = 0, i
            while True:
                if text[j] == "'":
                    j = text.index("'", j + 1)
                elif text[j] == "(":
                    depth += 1
                elif text[j] == ")":
                    depth -= 1
                    if depth == 0:
                        break
                j += 1
            yield text[i:j + 1]
            i = j + 1
        else:
            m = re.match(r"[A-Za-z0-9_$#@.\[\]]+|.", text[i:])
            yield m.group(0)
            i += len(m.group(0))


def split_top(body, sep=","):
    """Split a parenthesised body at top-level commas."""
    parts, depth, buf, in_str = [], 0, [], False
    for ch in body:
        if in_str:
            buf.append(ch)
            if ch == "'":
                in_str = False
            continue
        if ch == "'":
            in_str = True
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == sep and depth == 0:
            parts.append("".join(buf).strip())
            buf = []
            continue
        buf.append(ch)
    if "".join(buf).strip():
        parts.append("".join(buf).strip())
    return parts


def inner(group):
    assert group[0] == "(" and group[-1] == ")", group
    return group[1:-1]


def idlist(group):
    return [c.strip().strip("[]`\"") for c in inner(group).split(",")]


def emit_table(name, cols, pk, uniques, fks):
    """MariaDB CREATE TABLE from a neutral model.
    cols: list of (name, mysql_type, notnull, default_sql_or_None, extra)."""
    lines = []
    for cname, ctype, notnull, default, extra in cols:
        s = f"  `{cname}` {ctype}"
        if notnull:
            s += " NOT NULL"
        if extra:
            s += " " + extra
        if default is not None:
            s += f" DEFAULT {default}"
        lines.append(s)
    if pk:
        lines.append("  PRIMARY KEY (" + ", ".join(f"`{c}`" for c in pk) + ")")
    for u in uniques:
        lines.append("  UNIQUE (" + ", ".join(f"`{c}`" for c in u) + ")")
    for fcols, rtable, rcols, rules in fks:
        lines.append("  FOREIGN KEY (" + ", ".join(f"`{c}`" for c in fcols) + f") REFERENCES `{rtable}` ("
                     + ", ".join(f"`{c}`" for c in rcols) + ")" + (" " + rules if rules else ""))
    return f"CREATE TABLE `{name}` (\n" + ",\n".join(lines) + "\n);\n"


def resolve_fks(tables):
    """Fill in referenced columns left implicit (REFERENCES t => t's PK)."""
    for t in tables.values():
        fixed = []
        for fcols, rtable, rcols, rules in t["fks"]:
            if not rcols:
                rcols = tables[rtable]["pk"]
            fixed.append((fcols, rtable, rcols, rules))
        t["fks"] = fixed


# ---------------------------------------------------------------- MySQL


def strip_db(text, qualifiers):
    out = []
    for line in text.splitlines(keepends=True):
        if re.match(r"\s*(DROP|CREATE)\s+DATABASE\b", line, re.I):
            continue
        if re.match(r"\s*USE\s+[`\w]+\s*;\s*$", line, re.I):
            continue
        out.append(line)
    text = "".join(out)
    for qual in qualifiers:
        text = re.sub(r"(?i)\b(TABLE(?:\s+IF\s+EXISTS)?|INTO|REFERENCES)(\s+)" + re.escape(qual),
                      r"\1\2", text)
    return text


def create_tables(text):
    out = []
    for stmt in split_statements(text):
        if re.match(r"(?i)CREATE\s+TABLE\b", stmt):
            out.append(stmt + ";\n")
    return "\n".join(out)


def rename_tables(text, mapping):
    pairs = dict(p.split("=") for p in mapping.split(","))
    return re.sub(r"(?i)(INSERT\s+INTO\s+)`?(\w+)`?",
                  lambda m: m.group(1) + "`" + pairs.get(m.group(2), m.group(2)) + "`", text)


# ---------------------------------------------------------------- SQL Server

TSQL_STARTS = re.compile(
    r"(?i)^\s*(insert|create|execute|exec|raiserror|if|else|begin|end|set|use|print|checkpoint|"
    r"update|declare|select|drop|alter|dbcc|while|go)\b")


def tsql_statements(batch):
    """Split a T-SQL batch into statements: a statement starts on a line
    (outside a string literal) that begins with a statement keyword."""
    stmts, buf, in_str = [], [], False
    for line in batch.splitlines():
        if not in_str and TSQL_STARTS.match(line) and buf:
            stmts.append("\n".join(buf).strip())
            buf = []
        if not in_str and not buf and not line.strip():
            continue
        buf.append(line)
        in_str ^= (line.count("'") % 2 == 1)
    if buf:
        stmts.append("\n".join(buf).strip())
    return [s.rstrip(";").strip() for s in stmts if s.strip()]


def go_batches(text):
    return re.split(r"(?im)^\s*go\s*$", text)


def unqualify(text, schemas):
    return re.sub(r"(?i)\b(TABLE|INTO|REFERENCES|IDENTITY_INSERT)(\s+)(?:" + "|".join(schemas) + r")\.",
                  r"\1\2", text)


def bikestores_ddl(text):
    out = []
    for batch in go_batches(text):
        for stmt in split_statements(batch):
            if re.match(r"(?i)CREATE\s+SCHEMA\b", stmt):
                continue
            stmt = unqualify(stmt, ["production", "sales"])
            stmt = re.sub(r"(?i)\bIDENTITY\s*\(\s*1\s*,\s*1\s*\)", "AUTO_INCREMENT", stmt)
            out.append(stmt + ";\n")
    return "\n".join(out)


def bikestores_data(text):
    out = []
    for batch in go_batches(text):
        for stmt in tsql_statements(batch):
            if not re.match(r"(?i)insert\b", stmt):
                continue  # use [Bike Stores], SET IDENTITY_INSERT ...
            out.append(unqualify(stmt, ["production", "sales"]) + ";\n")
    return "".join(out)


PUBS_TYPES = {  # sp_addtype user types and SQL Server types -> MariaDB
    "money": "decimal(19,4)", "bit": "tinyint(1)", "tinyint": "tinyint unsigned",
    "image": "longblob", "text": "text", "datetime": "datetime",
    "smallint": "smallint", "int": "int",
}


def pubs_column(item, usertypes):
    """Parse one T-SQL column definition. Returns (col, pk?, fk)."""
    toks = list(tokens(item))
    name, i = toks[0], 1
    typ = toks[i].lower()
    i += 1
    notnull, default, extra, pk, fk = False, None, "", False, None
    if typ in usertypes:
        typ, notnull = usertypes[typ]
    elif i < len(toks) and toks[i].startswith("("):
        typ = ("decimal" if typ == "dec" else typ) + toks[i].replace(" ", "")
        i += 1
    else:
        typ = PUBS_TYPES[typ]
    getdate_default = False
    while i < len(toks):
        t = toks[i].upper()
        if t == "NOT" and toks[i + 1].upper() == "NULL":
            notnull, i = True, i + 2
        elif t == "NULL":
            notnull, i = False, i + 1
        elif t == "IDENTITY":
            extra, i = "AUTO_INCREMENT", i + 2
        elif t == "CONSTRAINT":
            i += 2
        elif t == "PRIMARY":
            pk, i = True, i + 2
        elif t in ("CLUSTERED", "NONCLUSTERED"):
            i += 1
        elif t == "CHECK":
            i += 2  # CHECK constraints use SQL Server LIKE patterns; dropped
        elif t == "REFERENCES":
            m = re.match(r"(\w+)\s*(\(.*\))?$", toks[i + 1] + (toks[i + 2] if i + 2 < len(toks) and toks[i + 2].startswith("(") else ""))
            rtable = m.group(1)
            rcols = idlist(m.group(2)) if m.group(2) else []
            fk = ([name], rtable, rcols, "")
            i += 3 if m.group(2) else 2
        elif t == "DEFAULT":
            d = toks[i + 1]
            while d.startswith("(") and d.endswith(")"):
                d = inner(d).strip()
            if re.fullmatch(r"(?i)getdate\(\)|getdate", d) or d.lower().startswith("getdate"):
                getdate_default = True
                i += 2 if toks[i + 1].startswith("(") else 3
                continue
            default, i = d, i + 2
        else:
            raise SystemExit(f"pubs: cannot parse column {item!r} at {toks[i]!r}")
    if getdate_default:
        # DEFAULT (getdate()) depends on the install time: dropped, and the
        # column made nullable so that the one titles row relying on it
        # keeps NULL instead of an invented date.
        notnull = False
    return (name, typ, notnull, default, extra), pk, fk


def pubs_table(stmt, usertypes):
    m = re.match(r"(?is)CREATE\s+TABLE\s+(\w+)\s*(\(.*\))\s*$", stmt)
    name, body = m.group(1), inner(m.group(2))
    cols, pk, fks = [], [], []
    for item in split_top(body):
        head = item.split(None, 1)[0].upper()
        if head in ("CONSTRAINT", "PRIMARY", "FOREIGN", "CHECK", "UNIQUE"):
            toks = list(tokens(item))
            if head == "CONSTRAINT":
                toks = toks[2:]
            kind = toks[0].upper()
            if kind == "PRIMARY":
                pk = idlist([t for t in toks if t.startswith("(")][0])
            elif kind == "CHECK":
                pass
            else:
                raise SystemExit(f"pubs: unexpected constraint {item!r}")
            continue
        col, is_pk, fk = pubs_column(item, usertypes)
        cols.append(col)
        if is_pk:
            pk = [col[0]]
        if fk:
            fks.append(fk)
    return dict(name=name, cols=cols, pk=pk, uniques=[], fks=fks)


def pubs_value_fix(stmt):
    """$12.34 money literals -> 12.34; 'm/d/yy' date strings -> 'yyyy-mm-dd'."""
    out, i, n = [], 0, len(stmt)
    while i < n:
        ch = stmt[i]
        if ch == "'":
            j = i + 1
            while True:
                j = stmt.index("'", j)
                if j + 1 < n and stmt[j + 1] == "'":
                    j += 2
                    continue
                break
            lit = stmt[i:j + 1]
            m = re.fullmatch(r"'(\d{1,2})/(\d{1,2})/(\d{2})'", lit)
            if m:
                mo, d, y = (int(x) for x in m.groups())
                lit = f"'{1900 + y:04d}-{mo:02d}-{d:02d}'"
            out.append(lit)
            i = j + 1
        elif ch == "$" and i + 1 < n and (stmt[i + 1].isdigit() or stmt[i + 1] == "-"):
            i += 1
        else:
            out.append(ch)
            i += 1
    return "".join(out)


def pubs(data):
    # The script mixes code pages: "München" is byte 0x81 (OEM cp437 u-umlaut)
    # in publishers and byte 0xFC (latin-1 u-umlaut) in pub_info.  Decode as
    # latin-1 and map the stray 0x81 to the same letter.
    text = data.decode("latin-1").replace("\x81", "\u00fc").replace("\r\n", "\n")
    usertypes, tables, inserts = {}, {}, []
    for batch in go_batches(text):
        first = re.sub(r"(?s)/\*.*?\*/|--[^\n]*", "", batch).strip()
        if re.match(r"(?i)CREATE\s+(PROC|PROCEDURE|TRIGGER|VIEW)\b", first):
            continue
        for stmt in tsql_statements(batch):
            m = re.match(r"(?is)exec(?:ute)?\s+sp_addtype\s+(\w+)\s*,\s*'([^']*)'\s*,\s*'([^']*)'", stmt)
            if m:
                usertypes[m.group(1).lower()] = (m.group(2), m.group(3).upper() == "NOT NULL")
            elif re.match(r"(?i)CREATE\s+TABLE\b", stmt):
                t = pubs_table(stmt, usertypes)
                tables[t["name"]] = t
            elif re.match(r"(?i)insert\b", stmt):
                inserts.append(stmt)
    resolve_fks(tables)
    out = []
    for t in tables.values():
        out.append(emit_table(t["name"], t["cols"], t["pk"], t["uniques"], t["fks"]))
    for stmt in inserts:
        m = re.match(r"(?is)insert\s+(?:into\s+)?(\w+)\s*(\([^)]*\))?\s*values\s*(.*)$", stmt)
        table, collist, values = m.group(1), m.group(2), m.group(3)
        if not collist:
            cols = tables[table]["cols"]
            if any(c[4] == "AUTO_INCREMENT" for c in cols):
                # SQL Server skips the IDENTITY column in a bare VALUES list
                collist = "(" + ", ".join(f"`{c[0]}`" for c in cols if c[4] != "AUTO_INCREMENT") + ")"
        out.append(f"INSERT INTO `{table}` {collist or ''} VALUES {pubs_value_fix(values)};\n")
    return "".join(out)


# ---------------------------------------------------------------- Oracle


def oracle_type(t):
    t = t.upper().replace(" ", "")
    m = re.fullmatch(r"NUMBER(?:\((\d+)(?:,(\d+))?\))?", t)
    if m:
        p, s = m.group(1), m.group(2)
        if p is None:
            # bare NUMBER: HR uses it only for the integer region_id keys
            return "decimal(38,0)"
        if s is None or int(s) == 0:
            return "int" if int(p) <= 9 else "bigint"
        return f"decimal({p},{s})"
    m = re.fullmatch(r"VARCHAR2\((\d+)\)", t)
    if m:
        return f"varchar({m.group(1)})"
    m = re.fullmatch(r"CHAR\((\d+)\)", t)
    if m:
        return f"char({m.group(1)})"
    if t == "DATE":
        return "date"
    raise SystemExit(f"oracle: unknown type {t}")


def oracle_constraint(toks):
    """toks after an optional CONSTRAINT name. Returns (kind, data)."""
    kind = toks[0].upper()
    if kind == "PRIMARY":
        return "pk", idlist(toks[2])
    if kind == "UNIQUE":
        return "unique", idlist(toks[1])
    if kind == "CHECK":
        return "check", None
    if kind == "FOREIGN":
        fcols = idlist(toks[2])
        assert toks[3].upper() == "REFERENCES"
        rtable = toks[4]
        rcols = idlist(toks[5]) if len(toks) > 5 and toks[5].startswith("(") else []
        rest = " ".join(toks[6 if rcols else 5:])
        return "fk", (fcols, rtable, rcols, rest)
    raise SystemExit(f"oracle: unknown constraint {' '.join(toks)}")


def oracle_hr(create_text, populate_text):
    def clean(text):
        keep = []
        for line in text.splitlines():
            s = line.strip()
            if re.match(r"(?i)(rem|prompt|set)\b", s) or s == "/" or re.match(r"(?i)(begin|end)\s*;?$", s):
                continue
            keep.append(line)
        return "\n".join(keep)

    tables = {}
    for stmt in split_statements(clean(create_text)):
        m = re.match(r"(?is)CREATE\s+TABLE\s+(\w+)\s*(\(.*\))(.*)$", stmt)
        if m:
            name = m.group(1)
            t = dict(name=name, cols=[], pk=[], uniques=[], fks=[])
            for item in split_top(inner(m.group(2))):
                toks = list(tokens(item))
                if toks[0].upper() == "CONSTRAINT":
                    kind, data = oracle_constraint(toks[2:])
                    if kind == "pk":
                        t["pk"] = data
                    elif kind == "unique":
                        t["uniques"].append(data)
                    elif kind == "fk":
                        t["fks"].append(data)
                    continue
                cname, ctype = toks[0], toks[1] + (toks[2] if len(toks) > 2 and toks[2].startswith("(") else "")
                rest = " ".join(toks[2:]).upper()
                t["cols"].append((cname, oracle_type(ctype), "NOT NULL" in rest, None, ""))
            tables[name] = t
            continue
        m = re.match(r"(?is)ALTER\s+TABLE\s+(\w+)\s+ADD\s*(\(.*\))\s*$", stmt)
        if m:
            t = tables[m.group(1)]
            for item in split_top(inner(m.group(2))):
                toks = list(tokens(item))
                assert toks[0].upper() == "CONSTRAINT", item
                kind, data = oracle_constraint(toks[2:])
                if kind == "pk":
                    t["pk"] = data
                elif kind == "unique":
                    t["uniques"].append(data)
                elif kind == "fk":
                    t["fks"].append(data)
            continue
        # CREATE [UNIQUE] INDEX, CREATE SEQUENCE, views, COMMENT ON: not needed
    resolve_fks(tables)
    out = [emit_table(t["name"], t["cols"], t["pk"], t["uniques"], t["fks"]) for t in tables.values()]

    def to_date(m):
        value, mask = m.group(1), m.group(2)
        if mask.lower() != "dd-mm-yyyy":
            raise SystemExit(f"oracle: unsupported TO_DATE mask {mask}")
        d, mo, y = value.split("-")
        return f"'{y}-{mo}-{d}'"

    for stmt in split_statements(clean(populate_text)):
        if not re.match(r"(?i)INSERT\s+INTO\b", stmt):
            continue  # ALTER SESSION, DISABLE/ENABLE CONSTRAINT, COMMIT
        stmt = re.sub(r"(?i)TO_DATE\(\s*'([^']*)'\s*,\s*'([^']*)'\s*\)", to_date, stmt)
        out.append(stmt + ";\n")
    return "".join(out)


# ---------------------------------------------------------------- main


def main():
    args = sys.argv[1:]
    if not args:
        sys.exit(__doc__)
    cmd = args[0]
    if cmd == "pubs":
        sys.stdout.write(pubs(sys.stdin.buffer.read()))
        return
    if cmd == "oracle-hr":
        with open(args[1], encoding="utf-8") as f1, open(args[2], encoding="utf-8") as f2:
            sys.stdout.write(oracle_hr(f1.read(), f2.read()))
        return
    text = sys.stdin.read().lstrip("\ufeff")
    if cmd == "table-order":
        names = []
        for m in re.finditer(r"(?im)^\s*CREATE\s+TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?[`\"\[]?(\w+)", text):
            if m.group(1) not in names:
                names.append(m.group(1))
        print(",".join(names))
    elif cmd == "strip-db":
        quals = [args[i + 1] for i in range(1, len(args) - 1) if args[i] == "--qualifier"]
        sys.stdout.write(strip_db(text, quals))
    elif cmd == "create-tables":
        sys.stdout.write(create_tables(text))
    elif cmd == "rename-tables":
        sys.stdout.write(rename_tables(text, args[1]))
    elif cmd == "bikestores-ddl":
        sys.stdout.write(bikestores_ddl(text))
    elif cmd == "bikestores-data":
        sys.stdout.write(bikestores_data(text))
    else:
        sys.exit(f"unknown command {cmd}\n{__doc__}")


if __name__ == "__main__":
    main()
