#!/usr/bin/env bash
# database.sh: the history's PostgreSQL store against a real server, as CI runs it.
#
# Installs Debian's postgresql when missing (as root; the package's service is not started by the install),
# starts the newest cluster listening on 127.0.0.1 only, creates the role and database the tests use (idempotent),
# runs the tests tagged database (`mvn -Pdatabase -pl extension -am test`, extra arguments passed on), and stops the
# server again if this script started it, whatever happens. Each test works in a schema of its own and drops it.
#
# Needs: Debian (apt-get, pg_ctlcluster), root, Java 17 and Maven. Settings (environment):
#   PGPORT=5432  DB_NAME=llmbench  DB_USER=llmbench  DB_PASSWORD=llmbench
set -euo pipefail
cd "$(dirname "$0")/.." || exit 1
port=${PGPORT:-5432}
db=${DB_NAME:-llmbench}
user=${DB_USER:-llmbench}
password=${DB_PASSWORD:-llmbench}

if ! command -v pg_ctlcluster >/dev/null; then
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
    echo "database: PostgreSQL is missing; install Debian's postgresql as root (apt-get install -y postgresql)" >&2
    exit 2
  fi
  echo "database: installing postgresql" >&2
  policy=
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    # The package would start its service on every address it is configured for; this script starts it itself.
    printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d && policy=1
  fi
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
  [ -z "$policy" ] || rm -f /usr/sbin/policy-rc.d
fi

version=$(find /usr/lib/postgresql -mindepth 1 -maxdepth 1 -printf "%f\n" | sort -n | tail -n 1)
cluster=main
if ! pg_lsclusters -h | awk -v v="$version" -v c="$cluster" '$1 == v && $2 == c { found = 1 } END { exit !found }'; then
  pg_createcluster --port "$port" "$version" "$cluster" >/dev/null
fi
started=
if ! pg_lsclusters -h | awk -v v="$version" -v c="$cluster" '$1 == v && $2 == c && $4 == "online" { found = 1 } END { exit !found }'; then
  pg_ctlcluster "$version" "$cluster" start -- -o "-c listen_addresses=127.0.0.1 -c port=$port"
  started=1
fi
stop() { [ -z "$started" ] || pg_ctlcluster "$version" "$cluster" stop; }
trap stop EXIT
echo "database: PostgreSQL $version/$cluster on 127.0.0.1:$port${started:+ (started here)}"

psql_admin() { su postgres -c "psql -p $port -v ON_ERROR_STOP=1 -qtA $*"; }
if [ "$(psql_admin "-c \"select 1 from pg_roles where rolname = '$user'\"")" != 1 ]; then
  psql_admin "-c \"create user $user password '$password'\""
fi
if [ "$(psql_admin "-c \"select 1 from pg_database where datname = '$db'\"")" != 1 ]; then
  psql_admin "-c \"create database $db owner $user\""
fi

export BENCH_PG_URL="jdbc:postgresql://127.0.0.1:$port/$db"
export BENCH_PG_USER="$user"
export BENCH_PG_PASSWORD="$password"
mvn -Pdatabase -pl extension -am test "$@"
