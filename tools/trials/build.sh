#!/usr/bin/env bash
# Rebuild the trial corpus: public sample databases converted to SQLite.
#
#   tools/trials/build.sh [--out DIR] [--schemas DIR] [NAME ...]
#
# Reads the source repositories from their git mirrors
# ($TRIALS_MIRROR/<owner>+<name>/repo, default /work/.mirror) with
# `git show HEAD:path`; never writes into a mirror.  Writes DIR/<name>.sqlite
# (default /tmp/trials/db) and a plain description per database to the
# schemas dir (default /tmp/trials/schemas).  MySQL, SQL Server and Oracle
# scripts are first loaded into a scratch MariaDB database (created and
# dropped here; $TRIALS_SCRATCH_DB, default trials_tmp) and then copied to
# SQLite by mysql2sqlite.py.  NAMEs restrict the build to some databases.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
OUT=/tmp/trials/db
SCHEMAS=/tmp/trials/schemas
MIRROR=${TRIALS_MIRROR:-/work/.mirror}
DB=${TRIALS_SCRATCH_DB:-trials_tmp}
export TRIALS_MYSQL_HOST=${TRIALS_MYSQL_HOST:-127.0.0.1}
export TRIALS_MYSQL_PORT=${TRIALS_MYSQL_PORT:-3306}
export TRIALS_MYSQL_USER=${TRIALS_MYSQL_USER:-root}
ALL=(employees classicmodels hr bikestores university gravity_books movies pubs)
ONLY=()

die() { echo "build.sh: $*" >&2; exit 1; }

while [ $# -gt 0 ]; do
  case "$1" in
    --out) OUT=${2:?--out needs a directory}; shift 2 ;;
    --schemas) SCHEMAS=${2:?--schemas needs a directory}; shift 2 ;;
    -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
    -*) die "unknown option $1" ;;
    *) ONLY+=("$1"); shift ;;
  esac
done
[ ${#ONLY[@]} -gt 0 ] || ONLY=("${ALL[@]}")
for n in "${ONLY[@]}"; do
  [[ " ${ALL[*]} " == *" $n "* ]] || die "unknown database '$n' (known: ${ALL[*]})"
done

# Source repositories of each database.
declare -A REPOS=(
  [employees]="datacharmer/test_db bytebase/employee-sample-database"
  [classicmodels]="hhorak/mysql-sample-db"
  [hr]="oracle-samples/db-sample-schemas"
  [bikestores]="ritshar18/BikeStores"
  [university]="JagrutThakare/University-DB"
  [gravity_books]="bbrumm/databasestar"
  [movies]="bbrumm/databasestar"
  [pubs]="sohail87/t-sql"
)

gitdir() { echo "$MIRROR/${1/\//+}/repo"; }
for n in "${ONLY[@]}"; do
  for r in ${REPOS[$n]}; do
    g=$(gitdir "$r")
    git --git-dir="$g" rev-parse --verify -q HEAD >/dev/null 2>&1 ||
      die "no git mirror of github:$r at $g (needed for '$n'): fetch github:$r, or set TRIALS_MIRROR"
  done
done

# show OWNER/NAME PATH: a file of the mirror's HEAD, on stdout.
show() {
  local g; g=$(gitdir "$1")
  git --git-dir="$g" show "HEAD:$2" 2>/dev/null ||
    die "cannot read '$2' from github:$1 ($g): file missing or not present in the snapshot"
}

for tool in git python3 sqlite3 mysql; do
  command -v "$tool" >/dev/null || die "$tool is required"
done
MYSQL=(mysql -h "$TRIALS_MYSQL_HOST" -P "$TRIALS_MYSQL_PORT" -u "$TRIALS_MYSQL_USER" --default-character-set=utf8mb4)
"${MYSQL[@]}" -e 'SELECT 1' >/dev/null || die "cannot reach MariaDB at $TRIALS_MYSQL_HOST:$TRIALS_MYSQL_PORT"

WORK=$(mktemp -d /tmp/trials-build.XXXXXX)
cleanup() {
  "${MYSQL[@]}" -e "DROP DATABASE IF EXISTS \`$DB\`" >/dev/null 2>&1 || true
  rm -rf "$WORK"
}
trap cleanup EXIT
mkdir -p "$OUT" "$SCHEMAS"

convert() { python3 "$HERE/convert.py" "$@"; }

# SQL modes: MySQL dumps use backslash escapes; SQL Server/Oracle scripts do not.
MODE_MYSQL='STRICT_ALL_TABLES,NO_AUTO_VALUE_ON_ZERO'
MODE_STD='STRICT_ALL_TABLES,NO_AUTO_VALUE_ON_ZERO,NO_BACKSLASH_ESCAPES'

scratch() {
  "${MYSQL[@]}" -e "DROP DATABASE IF EXISTS \`$DB\`; CREATE DATABASE \`$DB\` CHARACTER SET utf8mb4 COLLATE utf8mb4_bin"
}
# load MODE FILE: run a converted script in the scratch database.
load() {
  { echo "SET FOREIGN_KEY_CHECKS=0; SET SESSION sql_mode='$1';"; cat "$2"; } | "${MYSQL[@]}" "$DB" ||
    die "loading $2 into MariaDB failed"
}
# export NAME TABLE_ORDER [mysql2sqlite options]
export_sqlite() {
  local name=$1 order=$2; shift 2
  rm -f "$OUT/$name.sqlite"
  python3 "$HERE/mysql2sqlite.py" --db "$DB" --out "$OUT/$name.sqlite" --tables "$order" "$@"
}

build_employees() {
  # Schema: datacharmer/test_db (the original).  Data: the full dumps are too
  # large for the snapshot, so the deterministic 10,000-employee subset
  # "dataset_large" of bytebase/employee-sample-database is used, whose
  # tables are singular (employee, salary ...); rows are positional, so only
  # the table names are mapped back.
  local s="$WORK/employees.sql" d="$WORK/employees_data.sql" f
  show datacharmer/test_db employees.sql | convert create-tables > "$s"
  for f in load_department load_employee load_dept_emp load_dept_manager load_title load_salary1; do
    show bytebase/employee-sample-database "mysql/dataset_large/$f.sql"; echo
  done | convert rename-tables employee=employees,department=departments,title=titles,salary=salaries > "$d"
  scratch; load "$MODE_MYSQL" "$s"; load "$MODE_MYSQL" "$d"
  export_sqlite employees "$(convert table-order < "$s")"
}

build_classicmodels() {
  local s="$WORK/classicmodels.sql"
  show hhorak/mysql-sample-db mysqlsampledatabase.sql | convert strip-db > "$s"
  scratch; load "$MODE_MYSQL" "$s"
  export_sqlite classicmodels "$(convert table-order < "$s")"
}

build_hr() {
  local s="$WORK/hr.sql"
  show oracle-samples/db-sample-schemas human_resources/hr_create.sql > "$WORK/hr_create.sql"
  show oracle-samples/db-sample-schemas human_resources/hr_populate.sql > "$WORK/hr_populate.sql"
  convert oracle-hr "$WORK/hr_create.sql" "$WORK/hr_populate.sql" > "$s"
  scratch; load "$MODE_STD" "$s"
  export_sqlite hr "$(convert table-order < "$s")"
}

build_bikestores() {
  local s="$WORK/bikestores.sql"
  show ritshar18/BikeStores "BikeStores Sample Database - create objects.sql" | convert bikestores-ddl > "$s"
  show ritshar18/BikeStores "BikeStores Sample Database - load data.sql" | convert bikestores-data >> "$s"
  scratch; load "$MODE_STD" "$s"
  export_sqlite bikestores "$(convert table-order < "$s")"
}

build_university() {
  local s="$WORK/university.sql"
  show JagrutThakare/University-DB largeRelationsInsertFile.sql | convert strip-db > "$s"
  scratch; load "$MODE_MYSQL" "$s"
  export_sqlite university "$(convert table-order < "$s")"
}

build_gravity_books() {
  # Declared schema from the MySQL script; rows from the project's own
  # SQLite build (its MySQL scripts generate orders with RAND()/NOW()).
  local s="$WORK/gravity_books.sql" p=sample_databases/sample_db_gravity
  show bbrumm/databasestar "$p/mysql/01_mysql_create.sql" | convert strip-db > "$s"
  show bbrumm/databasestar "$p/sqlite/gravity.db" > "$WORK/gravity_src.db"
  scratch; load "$MODE_MYSQL" "$s"
  export_sqlite gravity_books "$(convert table-order < "$s")" --rows-from-sqlite "$WORK/gravity_src.db"
}

build_movies() {
  # MySQL scripts, except movie_crew: its MySQL file is not in the snapshot,
  # so the project's SQL Server version (same rows, split in two) is used.
  local s="$WORK/movies.sql" p=sample_databases/sample_db_movies f
  {
    for f in 01_reference_data 02_keyword 03_person 04_production_company 05_movie 06_movie_cast 07_movie_company; do
      show bbrumm/databasestar "$p/mysql/$f.sql"; printf '\n;\n'
    done
    for f in 08a_movie_crew 08b_movie_crew; do
      show bbrumm/databasestar "$p/sqlserver/$f.sql"; printf '\n;\n'
    done
    for f in 09_movie_genres 10_movie_keywords 11_movie_languages 12_production_country; do
      show bbrumm/databasestar "$p/mysql/$f.sql"; printf '\n;\n'
    done
  } | convert strip-db --qualifier movies.dbo. --qualifier movies. > "$s"
  scratch; load "$MODE_MYSQL" "$s"
  export_sqlite movies "$(convert table-order < "$s")"
}

build_pubs() {
  local s="$WORK/pubs.sql"
  show sohail87/t-sql instpubs.sql | convert pubs > "$s"
  scratch; load "$MODE_STD" "$s"
  export_sqlite pubs "$(convert table-order < "$s")"
}

for n in "${ONLY[@]}"; do
  echo "== $n" >&2
  "build_$n"
  python3 "$HERE/describe.py" fkcheck "$OUT/$n.sqlite" >&2
  python3 "$HERE/describe.py" schema "$OUT/$n.sqlite" > "$SCHEMAS/$n.txt"
done
"${MYSQL[@]}" -e "DROP DATABASE IF EXISTS \`$DB\`"

files=()
for n in "${ONLY[@]}"; do files+=("$OUT/$n.sqlite"); done
python3 "$HERE/describe.py" summary "${files[@]}"
