#!/usr/bin/env bash
# Starts a PostgreSQL cluster of its own (Debian's "faults" cluster on port 5439) for the test
# that stops and restarts the database under a running store, and prints what that test reads
# from VIZIER_TEST_POSTGRES_FAULTS: "URL VERSION CLUSTER". Installs the package if missing.
set -euo pipefail
if ! ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1; then
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
fi
version=$(ls /usr/lib/postgresql | sort -n | tail -1)
if ! pg_lsclusters -h | grep -q "^$version faults"; then
  pg_createcluster "$version" faults --port 5439 >/dev/null 2>&1
fi
pg_ctlcluster "$version" faults start >/dev/null 2>&1 || true
for _ in $(seq 30); do pg_isready -q -h 127.0.0.1 -p 5439 && break; sleep 1; done
psql_() { su postgres -c "psql -q -h 127.0.0.1 -p 5439 $*" >/dev/null 2>&1 || su postgres -c "psql -q -p 5439 $*" >/dev/null; }
psql_ "-c \"DROP DATABASE IF EXISTS vizier_faults\""
psql_ "-c \"DO \\\$\\\$ BEGIN CREATE ROLE vizier LOGIN PASSWORD 'vizier'; EXCEPTION WHEN duplicate_object THEN NULL; END \\\$\\\$\""
su postgres -c "createdb -p 5439 -O vizier vizier_faults"
echo "postgres://vizier:vizier@127.0.0.1:5439/vizier_faults $version faults"
